import { once } from 'node:events';
import { connect } from 'node:net';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';

// Every route reads its query string with a schema, so a parameter given twice
// is a 400 naming it; and a path the framework cannot decode is a sentence in the usual shape.
describe('request parts', () => {
  let t: TestApp;
  let account: Account;
  beforeAll(async () => {
    t = await startTestApp();
    account = await createAccount(t.app);
  });
  afterAll(() => t.close());

  const send = async (method: string, path: string) => {
    const res = await fetch(`${t.url}${path}`, { method, headers: bearer(account.key), ...(method === 'POST' ? { body: 'x' } : {}) });
    return { status: res.status, body: await res.json() };
  };

  it('refuses a repeated parameter on the site list, the team list and the import upload, naming it', async () => {
    for (const [method, path, name] of [
      ['GET', '/api/v1/sites?after=a&after=b', 'after'],
      ['GET', '/api/v1/sites/teams?limit=1&limit=2', 'limit'],
      ['POST', `/api/v1/sites/${account.domain}/imports?file_name=a.zip&file_name=b.zip`, 'file_name'],
    ]) {
      expect(await send(method as string, path as string), path).toEqual({
        status: 400,
        body: { error: `Parameter "${name}" is given 2 times; give it once.`, code: 'repeated_parameter' },
      });
    }
  });

  it('answers an address too long to read, and a request that is not HTTP, with sentences', async () => {
    const long = await fetch(`${t.url}/api/v1/stats/aggregate?site_id=${account.domain}&filters=${'x'.repeat(20_000)}`, { headers: bearer(account.key) });
    expect(long.status).toBe(431);
    // Readable by a tracker on another origin, as the event route's own answers are.
    expect(long.headers.get('access-control-allow-origin')).toBe('*');
    expect(await long.json()).toEqual({
      error: "The request's headers, its address included, are larger than the server reads (16 KB); send long filters in the body of POST /api/v2/query.",
      code: 'headers_too_large',
    });
    const { port } = new URL(t.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.end('NOT HTTP AT ALL\r\n\r\n');
    const [answer] = await Promise.all([text(socket), once(socket, 'close')]);
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(answer.split('\r\n\r\n')[1] ?? '')).toEqual({ error: 'The request is not valid HTTP.', code: 'bad_request' });
  });

  it('answers a path with a broken percent escape with a sentence, on the API and the web app alike', async () => {
    for (const path of ['/api/v1/sites/%ZZ', '/app/sites/%E0%A4%A']) {
      expect(await send('GET', path), path).toEqual({
        status: 400,
        body: { error: 'The request path is not a valid URL: a % must begin an escape such as %20 (write a % itself as %25).', code: 'invalid_url' },
      });
    }
  });
});
