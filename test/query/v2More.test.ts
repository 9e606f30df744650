import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSql } from '../../src/query/run/execute.js';
import { addGoal, includeClassifications, insertEvents } from '../support/eventFixtures.js';
import { ManualClock } from '../support/manualClock.js';
import { type Account, bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { SMALL_SITE } from './smallSite.js';

let t: TestApp;
let small: Account;
let newYork: Account;
let shop: Account;
let night: Account;
const clock = new ManualClock(Date.parse('2024-01-10T12:00:00Z'));

beforeAll(async () => {
  t = await startTestApp({ clock });
  small = await createAccount(t.app);
  await insertEvents(t.app, small.siteId, SMALL_SITE);

  newYork = await createAccount(t.app, { timezone: 'America/New_York' });
  await insertEvents(t.app, newYork.siteId, [
    { visitor: 'late', at: '2024-01-08 03:00:00' }, // 7 Jan, 22:00 in New York
    { visitor: 'early', at: '2024-01-08 15:00:00' }, // 8 Jan, 10:00 in New York
  ]);

  shop = await createAccount(t.app);
  await addGoal(t.app, shop.siteId, { eventName: 'Purchase', currency: 'EUR' });
  await addGoal(t.app, shop.siteId, { eventName: 'Donation', currency: 'USD' });
  await addGoal(t.app, shop.siteId, { eventName: 'Signup' });
  await insertEvents(t.app, shop.siteId, [
    ...['u1', 'u2', 'u3', 'u4', 'u5'].map((visitor) => ({ visitor, at: '2024-01-08 10:00:00' })),
    { visitor: 'u1', at: '2024-01-08 10:01:00', name: 'Purchase', revenue: { amount: 10, currency: 'EUR' } },
    { visitor: 'u2', at: '2024-01-08 10:01:00', name: 'Purchase', revenue: { amount: 10, currency: 'USD' } },
    { visitor: 'u3', at: '2024-01-08 10:01:00', name: 'Purchase', revenue: { amount: 5, currency: 'XYZ' } },
    { visitor: 'u4', at: '2024-01-08 10:01:00', name: 'Donation', revenue: { amount: 20, currency: 'USD' } },
    { visitor: 'u5', at: '2024-01-08 10:01:00', name: 'Signup' },
  ]);

  night = await createAccount(t.app);
  await insertEvents(t.app, night.siteId, [
    { visitor: 'owl', at: '2024-01-08 10:50:00', page: '/' },
    { visitor: 'owl', at: '2024-01-08 11:10:00', page: '/about' },
    { visitor: 'lark', at: '2024-01-08 11:30:00', page: '/' },
  ]);
});
afterAll(() => t.close());

async function query(account: Account, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.url}/api/v2/query`, {
    method: 'POST',
    headers: { ...bearer(account.key), 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ site_id: account.domain, ...body }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function ok(account: Account, body: Record<string, unknown>) {
  const res = await query(account, body);
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const rows = (body: any) => body.results.map((r: any) => [...r.dimensions, ...r.metrics]);
const RANGE = ['2024-01-08', '2024-01-09'];

describe('time zones', () => {
  it('reads dates in the site time zone unless the query overrides it', async () => {
    expect(rows(await ok(newYork, { metrics: ['pageviews'], date_range: ['2024-01-08', '2024-01-08'] }))).toEqual([[1]]);
    const utc = await ok(newYork, { metrics: ['pageviews'], date_range: ['2024-01-08', '2024-01-08'], timezone: 'Etc/UTC' });
    expect(rows(utc)).toEqual([[2]]);
    expect(utc.query.date_range).toEqual(['2024-01-08T00:00:00+00:00', '2024-01-08T23:59:59+00:00']);
    const daily = await ok(newYork, { metrics: ['pageviews'], date_range: ['2024-01-07', '2024-01-08'], dimensions: ['time:day'] });
    expect(rows(daily)).toEqual([
      ['2024-01-07', 1],
      ['2024-01-08', 1],
    ]);
    expect(daily.query.date_range).toEqual(['2024-01-07T00:00:00-05:00', '2024-01-08T23:59:59-05:00']);
  });
});

describe('hourly visits', () => {
  it('counts a visit in every hour it was active, visit metrics in the hour it ended', async () => {
    const body = await ok(night, {
      metrics: ['visitors', 'visits', 'bounce_rate', 'visit_duration'],
      date_range: ['2024-01-08', '2024-01-08'],
      dimensions: ['time:hour'],
    });
    expect(rows(body)).toEqual([
      ['2024-01-08 10:00:00', 1, 1, 0, null],
      ['2024-01-08 11:00:00', 2, 2, 50, 600],
    ]);
    const alone = await ok(night, { metrics: ['visitors'], date_range: ['2024-01-08', '2024-01-08'], dimensions: ['time:hour'] });
    expect(rows(alone)).toEqual([
      ['2024-01-08 10:00:00', 1],
      ['2024-01-08 11:00:00', 2],
    ]);
    // Days are not smeared: the visit counts on the day it ended.
    expect(rows(await ok(night, { metrics: ['visitors'], date_range: ['2024-01-08', '2024-01-08'], dimensions: ['time:day'] }))).toEqual([['2024-01-08', 2]]);
  });
});

describe('comparisons', () => {
  it('aligns a timeseries with the earlier period bucket by bucket, the current bucket compared so far', async () => {
    const body = await ok(small, {
      metrics: ['visitors'],
      date_range: ['2024-01-09', '2024-01-10'],
      dimensions: ['time:day'],
      include: { comparisons: { mode: 'previous_period' } },
    });
    expect(body.results).toEqual([
      { dimensions: ['2024-01-09'], metrics: [2], comparison: { dimensions: ['2024-01-07'], metrics: [0], change: [null] } },
      { dimensions: ['2024-01-10'], metrics: [0], comparison: { dimensions: ['2024-01-08'], metrics: [3], change: [-100] } },
    ]);
    expect(body.query.include.comparisons.date_range).toEqual(['2024-01-07T00:00:00+00:00', '2024-01-08T12:00:00+00:00']);
    expect(body.meta.present_index).toBe(1);
    expect(body.meta.metric_warnings.visitors).toMatchObject({ code: 'bucket_in_progress', warning: expect.any(String) });
  });

  it('compares the groups of a breakdown that the page shows', async () => {
    const body = await ok(small, {
      metrics: ['visitors'],
      date_range: ['2024-01-09', '2024-01-09'],
      dimensions: ['visit:source'],
      include: { comparisons: { mode: 'previous_period' } },
    });
    expect(body.results).toEqual([
      { dimensions: ['Direct / None'], metrics: [1], comparison: { dimensions: ['Direct / None'], metrics: [1], change: [0] } },
      { dimensions: ['Google'], metrics: [1], comparison: { dimensions: ['Google'], metrics: [1], change: [0] } },
    ]);
  });

  it('takes a custom comparison range and year over year', async () => {
    const custom = await ok(small, {
      metrics: ['pageviews'],
      date_range: ['2024-01-09', '2024-01-09'],
      include: { comparisons: { mode: 'custom', date_range: ['2024-01-08', '2024-01-08'] } },
    });
    expect(custom.results[0].comparison).toEqual({ dimensions: [], metrics: [4], change: [0] });
    const yoy = await ok(small, { metrics: ['pageviews'], date_range: ['2024-01-09', '2024-01-09'], include: { comparisons: { mode: 'year_over_year' } } });
    expect(yoy.results[0].comparison).toEqual({ dimensions: [], metrics: [0], change: [null] });
    expect(yoy.query.include.comparisons.date_range).toEqual(['2023-01-09T00:00:00+00:00', '2023-01-09T23:59:59+00:00']);
  });
});

describe('ordering and pagination', () => {
  it('orders as asked, ties broken by the dimension', async () => {
    expect(rows(await ok(small, { metrics: ['pageviews'], date_range: RANGE, dimensions: ['event:page'], order_by: [['pageviews', 'asc']] }))).toEqual([
      ['/blog', 2],
      ['/pricing', 2],
      ['/', 4],
    ]);
  });

  it('pages through groups and warns when a page cuts groups off', async () => {
    const first = await ok(small, { metrics: ['pageviews'], date_range: RANGE, dimensions: ['event:page'], pagination: { limit: 2 } });
    expect(rows(first)).toEqual([
      ['/', 4],
      ['/blog', 2],
    ]);
    expect(first.meta.metric_warnings.pageviews).toMatchObject({ code: 'truncated_groups', warning: expect.any(String) });
    const second = await ok(small, { metrics: ['pageviews'], date_range: RANGE, dimensions: ['event:page'], pagination: { limit: 2, offset: 2 } });
    expect(rows(second)).toEqual([['/pricing', 2]]);
    expect(second.meta.metric_warnings).toEqual({});
  });
});

describe('classified events', () => {
  it('counts bots once the site puts them back', async () => {
    const account = await createAccount(t.app);
    await insertEvents(t.app, account.siteId, SMALL_SITE);
    expect(rows(await ok(account, { metrics: ['visitors'], date_range: RANGE }))).toEqual([[4]]);
    await includeClassifications(t.app, account.siteId, ['bot']);
    expect(rows(await ok(account, { metrics: ['visitors'], date_range: RANGE }))).toEqual([[5]]);
  });
});

describe('revenue', () => {
  const DAY = ['2024-01-08', '2024-01-08'];

  it('sums revenue-goal events converted into the goal currency, leaving out unknown currencies with a warning', async () => {
    const body = await ok(shop, {
      metrics: ['total_revenue', 'average_revenue', 'revenue_per_visitor', 'visitors'],
      date_range: DAY,
      filters: [['is', 'event:goal', ['Purchase']]],
    });
    // 10 EUR + 10 USD at 1.058 USD per EUR = 19.452 EUR; XYZ has no rate.
    expect(rows(body)).toEqual([[19.452, 9.726, 6.484, 3]]);
    expect(body.meta.currency).toEqual({ total_revenue: 'EUR', average_revenue: 'EUR', revenue_per_visitor: 'EUR' });
    expect(body.meta.metric_warnings.total_revenue).toMatchObject({ code: 'exchange_rate_missing', warning: expect.any(String) });
  });

  it('is null with a warning when the goals in play use several currencies', async () => {
    const body = await ok(shop, { metrics: ['total_revenue'], date_range: DAY });
    expect(rows(body)).toEqual([[null]]);
    expect(body.meta.metric_warnings.total_revenue).toMatchObject({ code: 'no_single_revenue_currency', warning: expect.any(String) });
  });

  it('is null with a warning when no revenue goal matches', async () => {
    const body = await ok(shop, { metrics: ['total_revenue', 'visitors'], date_range: DAY, filters: [['is', 'event:goal', ['Signup']]] });
    expect(rows(body)).toEqual([[null, 1]]);
    expect(body.meta.metric_warnings.total_revenue).toMatchObject({ code: 'no_revenue_goals_matching', warning: expect.any(String) });
    expect(body.meta.metric_warnings.visitors).toBeUndefined();
  });

  it('gives each goal its own currency in a goal breakdown', async () => {
    const body = await ok(shop, { metrics: ['visitors', 'total_revenue'], date_range: DAY, dimensions: ['event:goal'] });
    expect(rows(body)).toEqual([
      ['Purchase', 3, 19.452],
      ['Donation', 1, 20],
      ['Signup', 1, null],
    ]);
    expect(body.meta.currency.total_revenue).toEqual({ Purchase: 'EUR', Donation: 'USD' });
  });

  it('computes conversion rates site-wide and per group', async () => {
    expect(rows(await ok(shop, { metrics: ['visitors', 'conversion_rate'], date_range: DAY, dimensions: ['event:goal'] }))).toEqual([
      ['Purchase', 3, 60],
      ['Donation', 1, 20],
      ['Signup', 1, 20],
    ]);
  });
});

describe('refusals', () => {
  it("answers a site of another team exactly like a missing one, with the reference's 401", async () => {
    const other = await query(small, { site_id: shop.domain, metrics: ['visitors'], date_range: '7d' });
    const missing = await query(small, { site_id: 'nowhere.example', metrics: ['visitors'], date_range: '7d' });
    expect(other.status).toBe(401);
    expect(missing.status).toBe(401);
    expect(other.body).toEqual(missing.body);
    expect(other.body.error).toMatch(/^Invalid API key or site ID\./);
  });

  it('refuses a body over 1 MiB', async () => {
    const res = await query(small, { metrics: ['visitors'], date_range: '7d', filters: [['is', 'visit:os', ['x'.repeat(1024 * 1024)]]] });
    expect(res.status).toBe(413);
  });

  it('needs the stats:read scope', async () => {
    const account = await createAccount(t.app, { scopes: ['sites:read'] });
    const res = await query(account, { metrics: ['visitors'], date_range: '7d' });
    expect(res.status).toBe(403);
  });

  it('turns a query over its time or memory limit into a 503 and carries on', async () => {
    const limits = { ...t.app.config.query, timeoutSeconds: 1 };
    await expect(runSql(t.app.events.query, 'SELECT count() FROM numbers(100000000000) WHERE sipHash64(number) = 1', {}, limits)).rejects.toMatchObject({
      status: 503,
      code: 'query_timeout',
    });
    const small = { ...t.app.config.query, memoryLimitBytes: 16 * 2 ** 20 };
    await expect(runSql(t.app.events.query, 'SELECT groupArray(number) FROM numbers(50000000)', {}, small)).rejects.toMatchObject({
      status: 503,
      code: 'query_too_large',
    });
    expect((await runSql(t.app.events.query, 'SELECT 1 AS one', {}, t.app.config.query))[0]).toEqual({ one: 1 });
  });
});
