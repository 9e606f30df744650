import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../src/stores/meta/apiKeys.js';
import { lockTeam, unlockTeam } from '../../src/stores/meta/teams.js';
import { ManualClock } from '../support/manualClock.js';
import { bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';

const run = promisify(execFile);
const clock = new ManualClock(Date.parse('2026-03-10T10:15:00Z'));
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ clock });
});
afterAll(() => t.close());

const sites = (headers: Record<string, string> = {}, query = '') => fetch(`${t.url}/api/v1/sites${query}`, { headers });

async function snapshot(res: Response) {
  return { status: res.status, body: await res.text(), challenge: res.headers.get('www-authenticate'), limit: res.headers.get('x-ratelimit-limit') };
}

describe('the authenticated API layer', () => {
  it('answers every kind of bad credential with the same 401', async () => {
    const account = await createAccount(t.app);
    const revoked = await createAccount(t.app);
    await revokeApiKey(t.app.meta.db, revoked.teamId, revoked.keyId, clock.now());
    const attempts = [
      sites(),
      sites({ authorization: '' }),
      sites({ authorization: 'Bearer' }),
      sites({ authorization: 'Bearer not-a-key' }),
      sites({ authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }),
      sites(bearer(`svc_${'A'.repeat(43)}`)),
      sites(bearer(revoked.key)),
      sites({}, `?api_key=${account.key}`),
      sites({}, `?key=${account.key}&authorization=Bearer%20${account.key}`),
    ];
    const results = await Promise.all(attempts.map(async (r) => snapshot(await r)));
    for (const result of results) {
      expect(result).toEqual(results[0]);
    }
    expect(results[0]).toMatchObject({ status: 401, challenge: 'Bearer', limit: null });
    expect(JSON.parse(results[0]!.body)).toEqual({ error: expect.stringMatching(/^A valid API key .*\.$/), code: 'unauthorized' });
  });

  it('accepts the key in the Authorization header, scheme in any case', async () => {
    const account = await createAccount(t.app);
    expect((await sites(bearer(account.key))).status).toBe(200);
    expect((await sites({ authorization: `bearer ${account.key}` })).status).toBe(200);
  });

  it('puts rate headers on every authenticated response', async () => {
    const account = await createAccount(t.app, { hourlyLimit: 500, scopes: ['stats:read'] });
    const reset = String(Date.parse('2026-03-10T11:00:00Z') / 1000);
    const forbidden = await sites(bearer(account.key));
    expect(forbidden.status).toBe(403);
    const invalid = await sites(bearer(account.key), '?limit=many');
    expect(invalid.status).toBe(403);
    const allowed = await createAccount(t.app, { hourlyLimit: 500 });
    const badInput = await sites(bearer(allowed.key), '?limit=many');
    expect(badInput.status).toBe(400);
    expect((await badInput.json()).error).toMatch(/^limit must be/);
    for (const [res, remaining] of [
      [forbidden, '499'],
      [invalid, '498'],
      [badInput, '499'],
    ] as const) {
      expect(res.headers.get('x-ratelimit-limit')).toBe('500');
      expect(res.headers.get('x-ratelimit-remaining')).toBe(remaining);
      expect(res.headers.get('x-ratelimit-reset')).toBe(reset);
    }
  });

  it('names the missing scope in a 403', async () => {
    const account = await createAccount(t.app, { scopes: ['stats:read', 'webhooks:write'] });
    const res = await sites(bearer(account.key));
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: 'This API key lacks the "sites:read" scope that this route requires.', code: 'insufficient_scope' });
  });

  it('answers 402 with the reason while the team is locked, and recovers on unlock', async () => {
    const account = await createAccount(t.app);
    await lockTeam(t.app.meta.db, account.teamId, 'invoice 2026-02 unpaid', clock.now());
    const locked = await sites(bearer(account.key));
    expect(locked.status).toBe(402);
    const body = await locked.json();
    expect(body.code).toBe('account_locked');
    expect(body.error).toContain('invoice 2026-02 unpaid');
    expect(body.error).toMatch(/billing/);
    expect(locked.headers.get('x-ratelimit-remaining')).not.toBeNull();
    await unlockTeam(t.app.meta.db, account.teamId);
    expect((await sites(bearer(account.key))).status).toBe(200);
  });

  it('refuses past the hourly limit with Retry-After, and opens again in the next window', async () => {
    clock.set('2026-03-10T12:59:30Z');
    const account = await createAccount(t.app, { hourlyLimit: 3 });
    for (const remaining of ['2', '1', '0']) {
      const res = await sites(bearer(account.key));
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-remaining')).toBe(remaining);
    }
    const refused = await sites(bearer(account.key));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await refused.json()).code).toBe('rate_limited');
    clock.set('2026-03-10T13:00:00Z');
    const reopened = await sites(bearer(account.key));
    expect(reopened.status).toBe(200);
    expect(reopened.headers.get('x-ratelimit-remaining')).toBe('2');
    expect(reopened.headers.get('x-ratelimit-reset')).toBe(String(Date.parse('2026-03-10T14:00:00Z') / 1000));
  });

  it('counts exactly under concurrent requests', async () => {
    clock.set('2026-03-10T15:10:00Z');
    const account = await createAccount(t.app, { hourlyLimit: 40 });
    const responses = await Promise.all(Array.from({ length: 100 }, () => sites(bearer(account.key))));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(40);
    expect(statuses.filter((s) => s === 429)).toHaveLength(60);
    const remaining = responses.filter((r) => r.status === 200).map((r) => Number(r.headers.get('x-ratelimit-remaining')));
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('gives a key only its own team’s sites', async () => {
    const mine = await createAccount(t.app);
    await createAccount(t.app);
    const body = await (await sites(bearer(mine.key))).json();
    expect(body.sites).toEqual([{ domain: mine.domain, timezone: 'Etc/UTC' }]);
  });

  it('sees a revocation made by the CLI on the very next request', async () => {
    const account = await createAccount(t.app);
    expect((await sites(bearer(account.key))).status).toBe(200);
    await run('./bin/svc', ['api-key', 'revoke', '--team', String(account.teamId), '--id', String(account.keyId), '--json'], {
      env: { PATH: process.env.PATH ?? '', ...t.env },
    });
    expect((await sites(bearer(account.key))).status).toBe(401);
  });
});
