import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmallSite } from '../query/smallSite.js';
import type { Account, TestApp } from '../support/testApp.js';
import { bearer, createAccount } from '../support/testApp.js';
import { zipOf } from '../support/zip.js';

// A Plausible-format export written by hand (the columns of its CSV export, §6.1 of the reference).
const VISITORS = 'date,visitors,pageviews,bounces,visits,visit_duration\n2024-01-01,10,25,4,12,600\n2024-01-02,7,9,5,8,120\n';
const SOURCES =
  'date,source,referrer,utm_source,utm_medium,utm_campaign,utm_content,utm_term,pageviews,visitors,visits,visit_duration,bounces\n' +
  '2024-01-01,Google,,,,,,,20,8,9,500,3\n2024-01-01,,,,,,,,5,2,3,100,1\n2024-01-02,"Hacker News",news.ycombinator.com,,,,,,9,7,8,120,5\n';

describe('imports', () => {
  let t: TestApp;
  let source: Account;
  let target: Account;

  beforeAll(async () => {
    ({ t, account: source } = await startSmallSite());
    target = await createAccount(t.app);
  });
  afterAll(() => t.close());

  const upload = async (account: Account, fileName: string, body: Buffer | string) => {
    const response = await fetch(`${t.url}/api/v1/sites/${account.domain}/imports?file_name=${encodeURIComponent(fileName)}`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': fileName.endsWith('.zip') ? 'application/zip' : 'text/csv' },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    });
    const answer = await response.json();
    expect(response.status, JSON.stringify(answer)).toBe(202);
    await t.app.imports.idle();
    const read = await fetch(`${t.url}/api/v1/sites/${account.domain}/imports/${answer.id}`, { headers: bearer(account.key) });
    return read.json();
  };

  const importedVisitors = async (account: Account) => {
    const result = await t.app.events.query.query({
      query: 'SELECT toString(date) AS date, sum(visitors) AS visitors FROM rollup_visitors WHERE site_id = {site:UInt64} GROUP BY date ORDER BY date',
      query_params: { site: account.siteId },
      format: 'JSONEachRow',
    });
    return (await result.json<{ date: string; visitors: string }>()).map((row) => [row.date, Number(row.visitors)]);
  };

  it('imports a hand-written Plausible export, and a second import of the same days replaces it', async () => {
    const first = await upload(
      target,
      'plausible.zip',
      await zipOf({ 'imported_visitors_20240101_20240102.csv': VISITORS, 'imported_sources_20240101_20240102.csv': SOURCES }),
    );
    expect(first).toMatchObject({ status: 'completed', from: '2024-01-01', to: '2024-01-02', rows: 5, files_done: 2, files_total: 2, error: null });
    expect(await importedVisitors(target)).toEqual([
      ['2024-01-01', 10],
      ['2024-01-02', 7],
    ]);
    const again = await upload(target, 'imported_visitors_20240101_20240102.csv', VISITORS);
    expect(again.status).toBe('completed');
    expect(await importedVisitors(target)).toEqual([
      ['2024-01-01', 10],
      ['2024-01-02', 7],
    ]);
  });

  it('imports our own export', async () => {
    const exported = await fetch(`${t.url}/api/v1/sites/${source.domain}/export?from=2024-01-08&to=2024-01-09`, { headers: bearer(source.key) });
    const other = await createAccount(t.app);
    const result = await upload(other, 'export.zip', Buffer.from(await exported.arrayBuffer()));
    expect(result).toMatchObject({ status: 'completed', from: '2024-01-08', to: '2024-01-09', files_total: 10 });
    expect(await importedVisitors(other)).toEqual([
      ['2024-01-08', 3],
      ['2024-01-09', 2],
    ]);
  });

  it("reads a file by its header, so a sources file whose counts start with visitors (our exports before they took Plausible's order) imports alike", async () => {
    const visitorsFirst =
      'date,source,referrer,utm_source,utm_medium,utm_campaign,utm_content,utm_term,visitors,visits,visit_duration,bounces,pageviews\n' +
      '2024-01-01,Google,,,,,,,8,9,500,3,20\n';
    const other = await createAccount(t.app);
    for (const file of [SOURCES, visitorsFirst]) {
      expect((await upload(other, 'imported_sources_20240101_20240102.csv', file)).status).toBe('completed');
      const result = await t.app.events.query.query({
        query: `SELECT visitors, visits, visit_duration, bounces, pageviews FROM rollup_sources
                WHERE site_id = {site:UInt64} AND source = 'Google'`,
        query_params: { site: other.siteId },
        format: 'JSONEachRow',
      });
      expect((await result.json()).map((row) => Object.values(row as object).map(Number))).toEqual([[8, 9, 500, 3, 20]]);
    }
  });

  it('fails clearly on bad input and touches no existing data', async () => {
    const before = await importedVisitors(target);
    const badName = await upload(target, 'x.zip', await zipOf({ 'visits_20240101_20240102.csv': VISITORS }));
    expect(badName).toMatchObject({ status: 'failed', error: { file: 'visits_20240101_20240102.csv' } });
    expect(badName.error.message).toContain('is not a file of an export');
    const badNumber = await upload(target, 'imported_visitors_20240101_20240102.csv', `${VISITORS}2024-01-02,many,1,1,1,1\n`);
    expect(badNumber).toMatchObject({ status: 'failed', error: { file: 'imported_visitors_20240101_20240102.csv', line: 4 } });
    expect(badNumber.error.message).toContain('"visitors" must be a whole number');
    // yazl refuses to write a climbing path, so one is patched in (same length, both headers).
    const safe = await zipOf({ 'aa/imported_visitors_20240101_20240102.csv': VISITORS });
    const climbingZip = Buffer.from(safe.toString('latin1').replaceAll('aa/imported', '../imported'), 'latin1');
    const climbing = await upload(target, 'x.zip', climbingZip);
    expect(climbing.status).toBe('failed');
    expect(climbing.error.message).toContain('unsafe path');
    const bomb = await upload(target, 'x.zip', await zipOf({ 'imported_visitors_20240101_20240102.csv': Buffer.alloc(50 * 1024 * 1024, 48) }));
    expect(bomb.status).toBe('failed');
    expect(bomb.error.message).toContain('would unpack to more');
    const notZip = await upload(target, 'x.zip', 'this is no zip');
    expect(notZip.error.message).toContain('not a readable ZIP');
    expect(await importedVisitors(target)).toEqual(before);
  });

  it('publishes import.completed and import.failed webhook events', async () => {
    const events = await t.app.meta.db.selectFrom('webhook_events').select(['type', 'payload']).where('site_id', '=', target.siteId).execute();
    const types = events.map((event) => event.type);
    expect(types).toContain('import.completed');
    expect(types).toContain('import.failed');
    const completed = JSON.parse(events.find((event) => event.type === 'import.completed')?.payload ?? '{}');
    expect(completed).toMatchObject({ domain: target.domain, from: '2024-01-01', to: '2024-01-02', rows: 5 });
  });

  it('lists and deletes imports', async () => {
    const list = await (await fetch(`${t.url}/api/v1/sites/${target.domain}/imports`, { headers: bearer(target.key) })).json();
    const completed = list.imports.filter((item: { status: string }) => item.status === 'completed');
    expect(completed.length).toBe(2);
    for (const item of completed) {
      const deleted = await fetch(`${t.url}/api/v1/sites/${target.domain}/imports/${item.id}`, { method: 'DELETE', headers: bearer(target.key) });
      expect(deleted.status).toBe(200);
    }
    expect(await importedVisitors(target)).toEqual([]);
    const missing = await fetch(`${t.url}/api/v1/sites/${target.domain}/imports/999999`, { headers: bearer(target.key) });
    expect(missing.status).toBe(404);
  });

  it('refuses an upload without a file name or body', async () => {
    const noName = await fetch(`${t.url}/api/v1/sites/${target.domain}/imports`, { method: 'POST', headers: bearer(target.key), body: 'x' });
    expect(noName.status).toBe(400);
    const empty = await fetch(`${t.url}/api/v1/sites/${target.domain}/imports?file_name=a.csv`, {
      method: 'POST',
      headers: { ...bearer(target.key), 'content-type': 'text/csv' },
    });
    expect(empty.status).toBe(400);
  });
});
