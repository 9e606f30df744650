import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runQuery } from '../../src/query/run/engine.js';
import { queryEngineDeps } from '../../src/queryEngine.js';
import { deleteExpiredRawEvents, keptFromDay } from '../../src/rollups/retention.js';
import { liveSites } from '../../src/stores/meta/sites.js';
import { parseIsoDate } from '../../src/time/localTime.js';
import { addGoal, type FixtureEvent, insertEvents } from '../support/eventFixtures.js';
import { ManualClock } from '../support/manualClock.js';
import { refusingRollups } from '../support/refusingRollups.js';
import { type Account, bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { csvRows, readZip } from '../support/zip.js';
import { SMALL_SITE, SMALL_SITE_NOW } from './smallSite.js';

// Raw-event retention (docs/rollups.md, Retention): the roll-up job deletes raw events of rolled-up
// days older than a site keeps; what roll-ups answer stays the same, what needs raw rows says so.
let t: TestApp;
let clock: ManualClock;

beforeAll(async () => {
  clock = new ManualClock(SMALL_SITE_NOW);
  t = await startTestApp({ clock });
  // Rounds run when a test asks: the app's timer would start one halfway through a test, and the
  // test's own round would then wait for it.
  await t.app.jobs.stop();
});
afterAll(() => t?.close());

const DAY_MS = 86_400_000;

/** SMALL_SITE's two days (8–9 Jan 2024) moved `days` back. */
const shifted = (days: number): FixtureEvent[] =>
  SMALL_SITE.map((event) => ({ ...event, at: new Date(Date.parse(`${event.at.replace(' ', 'T')}Z`) - days * DAY_MS).toISOString() }));

/** Its copies on 6–7 Nov, 4–5 Dec, 18–19 Dec 2023 and 8–9 Jan 2024. */
const HISTORY: FixtureEvent[] = [63, 35, 21, 0].flatMap(shifted);

async function request(account: Account, method: string, path: string, body?: unknown) {
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers: { ...bearer(account.key), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const query = (account: Account, body: Record<string, unknown>) => request(account, 'POST', '/api/v2/query', { site_id: account.domain, ...body });

async function ask(account: Account, body: Record<string, unknown>) {
  const res = await query(account, body);
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)} for ${JSON.stringify(body)}`);
  return res.body;
}

async function exportZip(account: Account, from: string, to: string) {
  const res = await fetch(`${t.url}/api/v1/sites/${account.domain}/export?from=${from}&to=${to}`, { headers: bearer(account.key) });
  expect(res.status).toBe(200);
  return readZip(Buffer.from(await res.arrayBuffer()));
}

/** Raw events per local day (Berlin) of a site, straight from the event store. */
async function rawDays(siteId: number, table: 'events' | 'sessions' = 'events'): Promise<Record<string, number>> {
  const result = await t.app.events.query.query({
    query: `SELECT toString(toDate(timestamp, 'Europe/Berlin')) AS day, count() AS n FROM ${table} WHERE site_id = {site:UInt64} GROUP BY day ORDER BY day`,
    query_params: { site: siteId },
    format: 'JSONEachRow',
  });
  return Object.fromEntries((await result.json<{ day: string; n: string }>()).map((row) => [row.day, Number(row.n)]));
}

const RANGE = ['2023-11-01', '2024-01-09'];

/** Long-range dashboard questions, all of which the daily roll-ups answer. */
const QUESTIONS: Record<string, unknown>[] = [
  { metrics: ['visitors', 'visits', 'pageviews', 'views_per_visit', 'bounce_rate', 'visit_duration'] },
  { metrics: ['visitors', 'pageviews'], dimensions: ['time:day'] },
  { metrics: ['visitors', 'visits'], dimensions: ['time:month'] },
  { metrics: ['visitors'], dimensions: ['visit:source'] },
  { metrics: ['visitors', 'pageviews'], dimensions: ['event:page'] },
  { metrics: ['visitors', 'bounce_rate'], dimensions: ['visit:entry_page'] },
  { metrics: ['visitors', 'exit_rate'], dimensions: ['visit:exit_page'] },
  { metrics: ['visitors', 'percentage'], dimensions: ['visit:country'] },
  { metrics: ['visitors'], dimensions: ['visit:browser'] },
  { metrics: ['visitors', 'events', 'conversion_rate'], dimensions: ['event:goal'] },
];

describe('the raw_retention_days setting', () => {
  it('is null (forever) by default, set and echoed through the management API, and refused with a sentence when out of bounds', async () => {
    const account = await createAccount(t.app);
    const path = `/api/v1/sites/${account.domain}`;
    expect((await request(account, 'GET', path)).body).toMatchObject({ raw_retention_days: null, raw_events_from: null });
    expect((await request(account, 'PUT', path, { raw_retention_days: 90 })).body).toMatchObject({ raw_retention_days: 90, raw_events_from: null });
    expect((await request(account, 'GET', path)).body.raw_retention_days).toBe(90);
    for (const bad of [29, 3651, 45.5, -1]) {
      expect(await request(account, 'PUT', path, { raw_retention_days: bad })).toEqual({
        status: 400,
        body: {
          code: 'invalid_raw_retention_days',
          error: `"raw_retention_days" must be a whole number of days from 30 to 3650, or null to keep raw events forever; got ${bad}.`,
        },
      });
    }
    expect(await request(account, 'PUT', path, { raw_retention_days: '90' })).toEqual({
      status: 400,
      body: { code: 'invalid_payload', error: 'Field "raw_retention_days" must be a number.' },
    });
    expect((await request(account, 'PUT', path, { raw_retention_days: null })).body.raw_retention_days).toBeNull();
    const created = await request(account, 'POST', '/api/v1/sites', { domain: `kept-${account.siteId}.example.com`, raw_retention_days: 30 });
    expect(created).toMatchObject({ status: 200, body: { raw_retention_days: 30 } });
  });
});

describe('a site keeping 30 days of raw events', () => {
  let account: Account;
  const before: unknown[] = [];
  let rawBefore: Record<string, number>;
  let exportBefore: Map<string, string>;
  let allBefore: any;

  beforeAll(async () => {
    account = await createAccount(t.app, { timezone: 'Europe/Berlin' });
    await insertEvents(t.app, account.siteId, HISTORY);
    await addGoal(t.app, account.siteId, { eventName: 'Signup' });
    for (const question of QUESTIONS) before.push((await ask(account, { date_range: RANGE, ...question })).results);
    allBefore = await ask(account, { date_range: 'all', metrics: ['visitors'] });
    rawBefore = await rawDays(account.siteId);
    exportBefore = await exportZip(account, '2023-11-01', '2024-01-09');
    expect((await request(account, 'PUT', `/api/v1/sites/${account.domain}`, { raw_retention_days: 30 })).status).toBe(200);
    await t.app.jobs.runOnce();
  });

  it('loses the raw events and visits of rolled-up days older than 30 days, and keeps the rest', async () => {
    // Today is 10 Jan 2024: the days before 11 Dec 2023 go.
    expect(t.app.rollups.coverage(account.siteId)?.through).toBe('2024-01-09');
    const kept = Object.fromEntries(Object.entries(rawBefore).filter(([day]) => day >= '2023-12-11'));
    expect(Object.keys(kept)).toEqual(['2023-12-18', '2023-12-19', '2024-01-08', '2024-01-09']);
    expect(await rawDays(account.siteId)).toEqual(kept);
    expect(Object.keys(await rawDays(account.siteId, 'sessions'))).toEqual(Object.keys(kept));
    expect((await request(account, 'GET', `/api/v1/sites/${account.domain}`)).body).toMatchObject({
      raw_retention_days: 30,
      raw_events_from: '2023-12-11',
    });
  });

  it('answers every long-range dashboard question as before, from the roll-ups', async () => {
    for (const [i, question] of QUESTIONS.entries()) {
      const body = await ask(account, { date_range: RANGE, ...question });
      expect(body.meta.sources, JSON.stringify(question)).toEqual(['rollup']);
      expect(body.results, JSON.stringify(question)).toEqual(before[i]);
    }
  });

  it('refuses a question only raw events answer over the deleted days, and answers it over the kept ones', async () => {
    const sentence =
      "This query needs raw events from before 2023-12-11, but %s deleted those once their days were rolled up (raw-event retention); ask a question the daily roll-ups can answer (whole days in the site's time zone; no custom properties, time on page, scroll depth, revenue or hourly buckets; see docs/rollups.md) or choose a range from 2023-12-11.";
    for (const question of [
      { metrics: ['visitors', 'time_on_page'], dimensions: ['event:page'] },
      { metrics: ['visitors'], dimensions: ['event:props:plan'] },
      { metrics: ['visitors'], filters: [['is', 'event:props:seats', ['5']]] },
      { metrics: ['visitors', 'pageviews'], filters: [['is', 'visit:country', ['DE']]] },
    ]) {
      expect(await query(account, { date_range: RANGE, ...question }), JSON.stringify(question)).toEqual({
        status: 400,
        body: { code: 'raw_events_deleted', error: sentence.replace('%s', account.domain) },
      });
      const kept = await ask(account, { date_range: ['2023-12-11', '2024-01-09'], ...question });
      expect(kept.meta.sources).toEqual(['raw']);
    }
    // A single past day is read raw (not whole days for the roll-ups to answer); a comparison
    // reaching back is refused as well.
    expect((await query(account, { date_range: ['2023-12-04T00:00:00+01:00', '2023-12-04T23:59:59+01:00'], metrics: ['visitors'] })).status).toBe(400);
    const compared = await query(account, {
      date_range: ['2023-12-18', '2024-01-09'],
      metrics: ['visitors'],
      dimensions: ['event:props:plan'],
      include: { comparisons: { mode: 'previous_period' } },
    });
    expect(compared.body.code).toBe('raw_events_deleted');
    // So is the comparison of a range still in progress, whose last day, partway through (up to
    // noon on 4 Dec here), only raw events hold; the same range once closed is compared whole days.
    const inProgress = { metrics: ['visitors'], include: { comparisons: { mode: 'previous_period' } } };
    expect((await query(account, { date_range: ['2023-12-05', '2024-01-10'], ...inProgress })).body.code).toBe('raw_events_deleted');
    expect((await ask(account, { date_range: ['2023-12-04', '2024-01-09'], ...inProgress })).meta.sources).toEqual(['rollup']);
  });

  it('answers a memory refusal of the roll-ups with the refusal, not with what is left of the raw rows', async () => {
    const deps = queryEngineDeps(t.app);
    const body = { site_id: account.domain, date_range: RANGE, metrics: ['visitors', 'pageviews'], dimensions: ['event:page'] };
    await expect(runQuery(refusingRollups(deps), account.teamId, body)).rejects.toMatchObject({ code: 'query_too_large' });
    // Over kept days the fallback still reads raw rows.
    const kept = await runQuery(refusingRollups(deps), account.teamId, { ...body, date_range: ['2023-12-11', '2024-01-09'] });
    expect(kept.meta.sources).toEqual(['raw']);
  });

  it('starts `all` at the first rolled-up day', async () => {
    const all = await ask(account, { date_range: 'all', metrics: ['visitors'] });
    expect(all.query.date_range[0]).toBe('2023-11-06T00:00:00+01:00');
    expect(all.query.date_range).toEqual(allBefore.query.date_range);
    expect(all.results).toEqual(allBefore.results);
  });

  it('exports the ten daily tables of deleted days from the roll-ups, and the raw events it still has', async () => {
    const after = await exportZip(account, '2023-11-01', '2024-01-09');
    expect([...after.keys()]).toEqual([...exportBefore.keys()]);
    // Roll-ups keep no engagement or properties: those columns are empty for the deleted days.
    const unkept = ['total_scroll_depth', 'total_scroll_depth_visits', 'total_time_on_page', 'total_time_on_page_visits', 'link_url', 'path'];
    const asRolledUp = (rows: Record<string, string>[]) =>
      rows.map((row) =>
        row.date! >= '2023-12-11'
          ? row
          : Object.fromEntries(Object.entries(row).map(([k, v]) => [k, unkept.includes(k) ? (k.startsWith('total') ? '0' : '') : v])),
      );
    for (const [name, text] of after) {
      if (name.startsWith('events_')) continue;
      expect(csvRows(text).length, name).toBeGreaterThan(0);
      expect(csvRows(text), name).toEqual(asRolledUp(csvRows(exportBefore.get(name)!)));
    }
    const pages = csvRows(after.get('imported_pages_20231101_20240109.csv')!);
    expect(pages.find((row) => row.date === '2023-12-04' && row.page === '/')).toMatchObject({ visitors: '2', total_scroll_depth: '0' });
    expect(pages.find((row) => row.date === '2023-12-18' && row.page === '/')).toMatchObject({ total_scroll_depth: '80' });
    const events = csvRows(after.get('events_20231101_20240109.csv')!);
    expect(events.length).toBe(Object.values(await rawDays(account.siteId)).reduce((a, b) => a + b, 0));
    expect(events.every((row) => row.timestamp! >= '2023-12-10T23:00:00Z')).toBe(true);
  });

  it('refuses imported raw events older than it keeps', async () => {
    const line = (timestamp: string) =>
      JSON.stringify({ timestamp, ip: '81.2.69.142', user_agent: 'Mozilla/5.0 Firefox/128.0', n: 'pageview', u: `https://${account.domain}/old` });
    const res = await fetch(`${t.url}/api/v1/sites/${account.domain}/events/import`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/x-ndjson' },
      body: [line('2023-12-04T10:00:00Z'), line('2023-12-11T10:00:00Z'), line('2023-12-20T10:00:00Z')].join('\n'),
    });
    expect(res.status).toBe(200);
    // One day of margin past today − 30, so an import running over midnight never writes into a deleted day.
    const reason = `"timestamp" is before 2023-12-12: ${account.domain} keeps no raw events of older days (raw-event retention; their days are rolled up)`;
    expect((await res.json()).rejected).toEqual([
      { line: 1, reason },
      { line: 2, reason },
    ]);
  });

  it('keeps its time zone, whose days the roll-ups were cut in', async () => {
    expect(await request(account, 'PUT', `/api/v1/sites/${account.domain}`, { timezone: 'Etc/UTC' })).toEqual({
      status: 400,
      body: {
        code: 'timezone_fixed',
        error: `${account.domain} cannot move to another time zone: its raw events before 2023-12-11 were deleted after their days were rolled up in Europe/Berlin, and those days cannot be cut again in another zone.`,
      },
    });
  });
});

describe('what the job may delete', () => {
  it('never reaches a day not rolled up yet', async () => {
    const account = await createAccount(t.app, { timezone: 'Europe/Berlin' });
    await insertEvents(t.app, account.siteId, HISTORY);
    await t.app.jobs.runOnce();
    expect((await request(account, 'PUT', `/api/v1/sites/${account.domain}`, { raw_retention_days: 30 })).status).toBe(200);
    // A late row on 18 Dec puts that day back to be rolled up: a deletion now, 25 days later
    // (retention alone would go up to 25 Dec), stops before it.
    await insertEvents(t.app, account.siteId, [{ visitor: 'late', at: '2023-12-18 20:00:00', page: '/late' }]);
    expect(t.app.rollups.coverage(account.siteId)?.through).toBe('2023-12-17');
    const later = SMALL_SITE_NOW + 15 * DAY_MS;
    const sites = (await liveSites(t.app.meta.db)).filter((site) => site.id === account.siteId);
    const deps = { db: t.app.meta.db, client: t.app.events.jobs, cluster: t.app.events.cluster, rollups: t.app.rollups };
    expect(await deleteExpiredRawEvents(deps, sites, later)).toEqual([account.siteId]);
    expect(Object.keys(await rawDays(account.siteId))).toEqual(['2023-12-18', '2023-12-19', '2024-01-08', '2024-01-09']);
    // Nothing more to delete until the horizon moves.
    expect(await deleteExpiredRawEvents(deps, await liveSites(t.app.meta.db).then((all) => all.filter((s) => s.id === account.siteId)), later)).toEqual([]);
  });

  it('keeps the days from today − N on, and never past the roll-ups', () => {
    const site = { id: 1, timezone: 'Europe/Berlin', rawRetentionDays: 30, rawEventsFrom: null };
    const coverage = (through: string) => ({ timezone: 'Europe/Berlin', through, until: 0, runsFrom: '1970-01-05', windows: [] });
    expect(keptFromDay(site, coverage('2024-01-09'), SMALL_SITE_NOW)).toEqual(parseIsoDate('2023-12-11'));
    expect(keptFromDay(site, coverage('2023-12-01'), SMALL_SITE_NOW)).toEqual(parseIsoDate('2023-12-02'));
    expect(keptFromDay({ ...site, rawRetentionDays: null }, coverage('2024-01-09'), SMALL_SITE_NOW)).toBeNull();
    expect(keptFromDay(site, undefined, SMALL_SITE_NOW)).toBeNull();
    expect(keptFromDay(site, { ...coverage('2024-01-09'), timezone: 'Etc/UTC' }, SMALL_SITE_NOW)).toBeNull();
  });

  it('leaves a site whose old days never had events unmarked', async () => {
    const account = await createAccount(t.app);
    await insertEvents(t.app, account.siteId, shifted(0));
    expect((await request(account, 'PUT', `/api/v1/sites/${account.domain}`, { raw_retention_days: 30 })).status).toBe(200);
    await t.app.jobs.runOnce();
    expect((await request(account, 'GET', `/api/v1/sites/${account.domain}`)).body.raw_events_from).toBeNull();
    expect((await ask(account, { date_range: '12mo', metrics: ['visitors'], dimensions: ['event:props:plan'] })).meta.sources).toEqual(['raw']);
  });
});
