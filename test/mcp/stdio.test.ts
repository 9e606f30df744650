import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStdioBridge } from '../../src/mcp/stdioBridge.js';
import { lockTeam } from '../../src/stores/meta/teams.js';
import { startSmallSite } from '../query/smallSite.js';
import { svc } from '../support/processes.js';
import { type Account, createAccount, type TestApp } from '../support/testApp.js';
import { caller, ok, refused } from './client.js';

// `svc mcp` runs from dist/ (npm run build); the service runs in this process, on its own data.
let t: TestApp;
let account: Account;
const clients: Client[] = [];

const RANGE = ['2024-01-08', '2024-01-09'];
const VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

async function stdioClient(options: { key?: string; args?: string[] }): Promise<Client> {
  const client = new Client({ name: 'svc-tests', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: './bin/svc',
      args: ['mcp', ...(options.args ?? ['--url', t.url])],
      env: { PATH: process.env.PATH ?? '', DATA_DIR: t.dataDir, LOG_LEVEL: 'silent', ...(options.key ? { SVC_API_KEY: options.key } : {}) },
      stderr: 'pipe',
    }),
  );
  clients.push(client);
  return client;
}

beforeAll(async () => {
  ({ t, account } = await startSmallSite());
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await t.close();
});

describe('svc mcp', () => {
  it('lists the tools with their schemas and answers them from the running server', async () => {
    const client = await stdioClient({ key: account.key });
    expect(client.getServerVersion()).toMatchObject({ name: 'svc-analytics', version: VERSION });
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(19);
    const query = tools.find((tool) => tool.name === 'query')!;
    expect(query.inputSchema).toMatchObject({ type: 'object', required: ['site_id', 'metrics', 'date_range'] });
    expect(query.annotations).toMatchObject({ readOnlyHint: true });

    const call = caller(client);
    expect(await ok(call, 'list_sites')).toEqual({ sites: [{ domain: account.domain, timezone: 'Etc/UTC' }] });
    const totals = await ok(call, 'query', { site_id: account.domain, metrics: ['visitors', 'visits', 'pageviews', 'bounce_rate'], date_range: RANGE });
    expect(totals.rows).toEqual([{ visitors: 4, visits: 5, pageviews: 8, bounce_rate: 60 }]);
    expect(totals.date_range).toEqual({ from: '2024-01-08T00:00:00+00:00', to: '2024-01-09T23:59:59+00:00', timezone: 'Etc/UTC' });
    const countries = await ok(call, 'top_countries', { site_id: account.domain, date_range: RANGE });
    expect(countries.rows[0]).toEqual({ 'visit:country': 'DE', visitors: 2, percentage: 50 });
    expect(countries.rows).toContainEqual({ 'visit:country': 'FR', visitors: 1, percentage: 25 });
    expect(countries.rows).toContainEqual({ 'visit:country': 'US', visitors: 1, percentage: 25 });
    expect(await refused(call, 'query', { site_id: account.domain, metrics: ['visitors'], date_range: 'fortnight' })).toBe(
      '#/date_range: Invalid date range "fortnight"; use one of day, 24h, 7d, 28d, 91d, month, last_month, year, 12mo, all, realtime, 5m, or a pair of ISO dates such as ["2024-01-01", "2024-01-31"].',
    );
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([`site://${account.domain}`]);
  });

  it("refuses tools outside the key's scopes with the scope named", async () => {
    const narrow = await createAccount(t.app, { scopes: ['sites:read'] });
    const call = caller(await stdioClient({ key: narrow.key }));
    expect(await refused(call, 'top_pages', { site_id: narrow.domain })).toBe('This API key lacks the "stats:read" scope that this tool requires.');
    expect(await ok(call, 'list_custom_properties', { site_id: narrow.domain })).toEqual({ custom_properties: [] });
  });

  it("answers a locked team's calls with the lock's sentence as a tool error", async () => {
    const locked = await createAccount(t.app);
    await lockTeam(t.app.meta.db, locked.teamId, 'card declined', t.app.clock.now());
    const call = caller(await stdioClient({ key: locked.key }));
    expect(await refused(call, 'list_sites')).toBe(
      "This team's account is locked (card declined); the API stays closed until a team owner settles it in the billing settings. Event collection continues meanwhile.",
    );
  });

  it('passes the rate limit on as a tool error', async () => {
    const limited = await createAccount(t.app, { hourlyLimit: 2 });
    const call = caller(await stdioClient({ key: limited.key }));
    await ok(call, 'list_sites');
    await ok(call, 'list_sites');
    expect(await refused(call, 'list_sites')).toMatch(/^This API key has used its 2 requests for this hour; try again in \d+ seconds\.$/);
  });

  it('says so when the key is unknown or the server does not answer', async () => {
    const unknown = caller(await stdioClient({ key: `svc_${'x'.repeat(43)}` }));
    expect(await refused(unknown, 'list_sites')).toBe('A valid API key is required in the header "Authorization: Bearer <key>".');
    const nowhere = caller(await stdioClient({ key: account.key, args: ['--url', 'http://127.0.0.1:9'] }));
    expect(await refused(nowhere, 'list_sites')).toBe('No server answers at http://127.0.0.1:9; start it with npm start or pass --url.');
  });

  it('answers a line that is not JSON, or not JSON-RPC, with the matching error', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const bridge = runStdioBridge({ baseUrl: t.url, key: account.key, stdin, stdout });
    stdin.end('garbage\n{"hello": "world"}\n{"jsonrpc": "2.0", "id": 1, "method": "ping"}\n');
    await bridge;
    expect(
      out
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { jsonrpc: '2.0', error: { code: -32700, message: 'A line on stdin is not JSON.' } },
      { jsonrpc: '2.0', error: { code: -32600, message: 'A line on stdin is JSON but not a JSON-RPC 2.0 message.' } },
      { jsonrpc: '2.0', id: 1, result: {} },
    ]);
  });

  it('takes the key from --key as well', async () => {
    const call = caller(await stdioClient({ args: ['--url', t.url, '--key', account.key] }));
    expect(await ok(call, 'list_sites')).toEqual({ sites: [{ domain: account.domain, timezone: 'Etc/UTC' }] });
  });

  it('exits 2 with a sentence when no key or no usable server address is given', async () => {
    const result = await svc(['mcp', '--url', t.url], { DATA_DIR: t.dataDir, LOG_LEVEL: 'silent' });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe('svc: An API key is needed: pass --key or set SVC_API_KEY.\n');
    const badUrl = await svc(['mcp', '--url', 'localhost:8000', '--key', account.key], { DATA_DIR: t.dataDir, LOG_LEVEL: 'silent' });
    expect(badUrl).toMatchObject({ code: 2, stdout: '', stderr: 'svc: --url "localhost:8000" is not a server address such as http://localhost:8000.\n' });
  });
});
