import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROME_MAC, SAFARI_IPHONE, stored } from '../support/collect.js';
import { ManualClock } from '../support/manualClock.js';
import { svc } from '../support/processes.js';
import { bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';

const clock = new ManualClock(Date.parse('2026-07-01T12:00:00Z'));
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ clock });
});
afterAll(() => t.close());

const line = (fields: Record<string, unknown>) => JSON.stringify(fields);

async function importInto(domain: string, key: string, body: string) {
  return fetch(`${t.url}/api/v1/sites/${domain}/events/import`, { method: 'POST', headers: { ...bearer(key), 'content-type': 'application/x-ndjson' }, body });
}

describe('POST /api/v1/sites/{site_id}/events/import', () => {
  it('replays lines in timestamp order through the pipeline and reports every outcome and rejected line', async () => {
    const account = await createAccount(t.app, { domain: 'history.example.com' });
    const visitor = { ip: '81.2.69.142', user_agent: CHROME_MAC, headers: { 'Accept-Language': 'fr-FR' } };
    const body = [
      // Out of order on purpose: the visit must be rebuilt by time, not by line.
      line({ ...visitor, timestamp: '2026-06-10T09:05:00Z', n: 'pageview', u: 'https://history.example.com/pricing' }),
      line({ ...visitor, timestamp: '2026-06-10T09:00:00Z', n: 'pageview', u: 'https://history.example.com/', r: 'https://www.google.com/' }),
      line({ ...visitor, timestamp: '2026-06-10T09:06:00Z', n: 'engagement', u: 'https://history.example.com/pricing', sd: 70, e: 20000 }),
      '{not json',
      line({ ...visitor, timestamp: 'yesterday', n: 'pageview' }),
      line({ ...visitor, timestamp: '2026-08-01T00:00:00Z', n: 'pageview' }),
      line({ timestamp: '2026-06-10T10:00:00Z', ip: 'nowhere', user_agent: CHROME_MAC, n: 'pageview' }),
      line({ timestamp: '2026-06-10T10:00:00Z', ip: '3.5.140.2', user_agent: '', n: 'pageview', u: 'https://history.example.com/' }),
      '',
      line({ ...visitor, timestamp: '2026-06-10T10:00:00Z' }),
      // The same person on the next day is a new visitor: each day has its own salt.
      line({ ...visitor, timestamp: '2026-06-11T09:00:00Z', n: 'pageview', u: 'https://history.example.com/' }),
      line({ ip: '8.8.4.4', user_agent: 'curl/8.0', timestamp: '2026-06-11T10:00:00Z', n: 'pageview', u: 'https://history.example.com/' }),
      line({ ...visitor, timestamp: '2026-06-11T11:00:00Z', n: 'engagement', u: 'https://history.example.com/orphan', sd: 5 }),
      line({
        ...visitor,
        timestamp: '2026-06-11T12:00:00Z',
        n: 'Purchase',
        u: 'https://history.example.com/checkout',
        $: { amount: 20, currency: 'USD' },
        k: '0f8fad5b-d9cb-469f-a165-70867728950e',
      }),
      line({
        ...visitor,
        timestamp: '2026-06-11T12:00:01Z',
        n: 'Purchase',
        u: 'https://history.example.com/checkout',
        $: { amount: 20, currency: 'USD' },
        k: '0f8fad5b-d9cb-469f-a165-70867728950e',
      }),
    ].join('\n');
    const res = await importInto(account.domain, account.key, body);
    expect(res.status).toBe(200);
    const report = await res.json();
    expect(report).toMatchObject({ site_id: 'history.example.com', stored: true, lines: 14 });
    expect(report.rejected).toEqual([
      { line: 4, reason: 'not valid JSON' },
      { line: 5, reason: expect.stringMatching(/timestamp.*ISO 8601/) },
      { line: 6, reason: '"timestamp" is in the future' },
      { line: 7, reason: '"ip" must be an IPv4 or IPv6 address' },
      { line: 8, reason: expect.stringMatching(/data-center address/) },
      { line: 10, reason: expect.stringMatching(/"n" is required/) },
    ]);
    expect(report.outcomes).toEqual({ stored: 5, bot: 1, held: 1, duplicate: 1 });

    const events = await stored<{ timestamp: string; name: string; user_id: string; session_id: string; language: string; referrer_source: string }>(
      t,
      "SELECT timestamp, name, user_id, session_id, language, referrer_source FROM events WHERE site_id = {s:UInt64} AND classification = '' ORDER BY timestamp",
      { s: account.siteId },
    );
    expect(events.map((e) => [e.timestamp, e.name])).toEqual([
      ['2026-06-10 09:00:00', 'pageview'],
      ['2026-06-10 09:05:00', 'pageview'],
      ['2026-06-10 09:06:00', 'engagement'],
      ['2026-06-11 09:00:00', 'pageview'],
      ['2026-06-11 12:00:00', 'Purchase'],
    ]);
    expect(new Set(events.slice(0, 3).map((e) => e.session_id)).size).toBe(1);
    expect(events[0]).toMatchObject({ language: 'fr-FR', referrer_source: 'Google' });
    expect(events[3]!.user_id).not.toBe(events[0]!.user_id);
    const health = await (await fetch(`${t.url}/api/v1/sites/${account.domain}/ingestion?hours=1000`, { headers: bearer(account.key) })).json();
    expect(health.totals).toMatchObject({ accepted: 6, bot: 1, duplicate: 1, no_session_for_engagement: 1 });
  });

  it('classifies a data-center request without a user agent that relays a forwarded address, instead of refusing it', async () => {
    const account = await createAccount(t.app);
    const res = await importInto(
      account.domain,
      account.key,
      line({
        timestamp: '2026-06-12T10:00:00Z',
        ip: '3.5.140.2',
        user_agent: '',
        headers: { 'X-Forwarded-For': '81.2.69.142' },
        n: 'pageview',
        u: `https://${account.domain}/`,
      }),
    );
    const report = await res.json();
    expect(report.rejected).toEqual([]);
    expect(report.outcomes).toEqual({ bot: 1 });
  });

  it('runs as a background import with Prefer: respond-async, followed to its report, and refuses a line over 1 MiB', async () => {
    const account = await createAccount(t.app);
    const body = [
      line({ timestamp: '2026-06-21T10:02:00Z', ip: '81.2.69.142', user_agent: CHROME_MAC, n: 'pageview', u: `https://${account.domain}/b` }),
      line({ timestamp: '2026-06-21T10:01:00Z', ip: '81.2.69.142', user_agent: CHROME_MAC, n: 'pageview', u: `https://${account.domain}/a` }),
      line({
        timestamp: '2026-06-21T10:03:00Z',
        ip: '81.2.69.142',
        user_agent: CHROME_MAC,
        n: 'pageview',
        u: `https://${account.domain}/${'x'.repeat(1024 * 1024)}`,
      }),
    ].join('\n');
    const res = await fetch(`${t.url}/api/v1/sites/${account.domain}/events/import`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/x-ndjson', prefer: 'respond-async' },
      body,
    });
    expect(res.status).toBe(202);
    const accepted = await res.json();
    expect(accepted).toMatchObject({ kind: 'events', status: 'pending', file_name: 'events.ndjson', report: null });
    await t.app.imports.idle();
    const followed = await (await fetch(`${t.url}/api/v1/sites/${account.domain}/imports/${accepted.id}`, { headers: bearer(account.key) })).json();
    expect(followed).toMatchObject({
      kind: 'events',
      status: 'completed',
      rows: 3,
      report: { lines: 3, outcomes: { stored: 2 }, rejected: [{ line: 3, reason: 'longer than 1024 KiB' }], rejected_count: 1 },
    });
    const pages = await stored<{ pathname: string }>(t, 'SELECT pathname FROM events WHERE site_id = {s:UInt64} ORDER BY timestamp', { s: account.siteId });
    expect(pages.map((p) => p.pathname)).toEqual(['/a', '/b']);
    const removal = await fetch(`${t.url}/api/v1/sites/${account.domain}/imports/${accepted.id}`, { method: 'DELETE', headers: bearer(account.key) });
    expect(removal.status).toBe(409);
    expect((await removal.json()).code).toBe('events_import');
  });

  it('refuses more than a million lines in one request with a sentence', async () => {
    const account = await createAccount(t.app);
    const res = await importInto(account.domain, account.key, '\n'.repeat(1_000_001));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: 'An import takes at most 1,000,000 lines per request; split the file.', code: 'too_many_lines' });
  });

  it('needs sites:provision and answers 404 alike for a missing site and another team’s', async () => {
    const mine = await createAccount(t.app, { scopes: ['sites:read'] });
    const other = await createAccount(t.app);
    expect((await importInto(mine.domain, mine.key, '')).status).toBe(403);
    const full = await createAccount(t.app);
    const foreign = await importInto(other.domain, full.key, '');
    const missing = await importInto('missing.example.com', full.key, '');
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect((await foreign.json()).code).toBe((await missing.json()).code);
  });

  it('is wrapped by svc events import', async () => {
    const account = await createAccount(t.app);
    const file = join(t.dataDir, 'events.ndjson');
    writeFileSync(
      file,
      [1, 2, 3]
        .map((i) =>
          line({ timestamp: `2026-06-20T10:0${i}:00Z`, ip: '81.2.69.142', user_agent: SAFARI_IPHONE, n: 'pageview', u: `https://${account.domain}/p${i}` }),
        )
        .join('\n'),
    );
    const result = await svc(['events', 'import', '--site', account.domain, '--file', file, '--url', t.url, '--key', account.key, '--json'], {
      DATA_DIR: t.dataDir,
    });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toMatchObject({ lines: 3, outcomes: { stored: 3 }, rejected: [] });
    const [row] = await stored<{ c: string; device: string }>(t, 'SELECT count() AS c, any(device) AS device FROM events WHERE site_id = {s:UInt64}', {
      s: account.siteId,
    });
    expect(row).toEqual({ c: '3', device: 'Mobile' });
    const denied = await svc(['events', 'import', '--site', account.domain, '--file', file, '--url', t.url, '--key', 'svc_wrong'], { DATA_DIR: t.dataDir });
    expect(denied.code).toBe(2);
    expect(denied.stderr).toMatch(/valid API key/);
    const noServer = await svc(['events', 'import', '--site', account.domain, '--file', file, '--url', 'http://127.0.0.1:9', '--key', account.key], {
      DATA_DIR: t.dataDir,
    });
    expect(noServer.code).toBe(1);
    expect(noServer.stderr).toMatch(/No server answers/);
  });
});
