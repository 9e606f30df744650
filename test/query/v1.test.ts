import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../support/manualClock.js';
import { type Account, bearer, type TestApp } from '../support/testApp.js';
import { SMALL_SITE_NOW as NOW, startSmallSite } from './smallSite.js';

let t: TestApp;
let account: Account;
let clock: ManualClock;

beforeAll(async () => {
  ({ t, account, clock } = await startSmallSite());
});
afterAll(() => t.close());

async function get(path: string, params: Record<string, string>) {
  const search = new URLSearchParams({ site_id: account.domain, ...params });
  const res = await fetch(`${t.url}/api/v1/stats/${path}?${search}`, { headers: bearer(account.key) });
  return { status: res.status, body: (await res.json()) as any };
}

const CUSTOM = { period: 'custom', date: '2024-01-08,2024-01-09' };

describe('GET /api/v1/stats/aggregate', () => {
  it('answers each metric as {value}', async () => {
    const res = await get('aggregate', { ...CUSTOM, metrics: 'visitors,visits,pageviews,views_per_visit,bounce_rate,visit_duration' });
    expect(res.body).toEqual({
      results: {
        visitors: { value: 4 },
        visits: { value: 5 },
        pageviews: { value: 8 },
        views_per_visit: { value: 1.6 },
        bounce_rate: { value: 60 },
        visit_duration: { value: 312 },
      },
    });
  });

  it('compares with the previous period', async () => {
    const res = await get('aggregate', { period: 'day', date: '2024-01-09', metrics: 'visitors,pageviews', compare: 'previous_period' });
    expect(res.body.results).toEqual({ visitors: { value: 2, comparison_value: 3, change: -33 }, pageviews: { value: 4, comparison_value: 4, change: 0 } });
  });

  it('reads the 7d, 30d and 6mo periods relative to today', async () => {
    expect((await get('aggregate', { period: '7d' })).body.results.visitors.value).toBe(4);
    expect((await get('aggregate', { period: '30d' })).body.results.visitors.value).toBe(4);
    // 6mo ends with the previous month: nothing from January.
    expect((await get('aggregate', { period: '6mo' })).body.results.visitors.value).toBe(0);
  });

  it('parses the filter grammar', async () => {
    const visitors = async (filters: string) => (await get('aggregate', { ...CUSTOM, filters })).body.results.visitors.value;
    expect(await visitors('visit:country==DE|FR;visit:browser==Chrome')).toBe(2);
    // alice's second visit has no country, so she is counted outside DE too.
    expect(await visitors('visit:country!=DE')).toBe(3);
    expect(await visitors('event:page~pric')).toBe(2);
    // bob only ever saw /pricing.
    expect(await visitors('event:page!~pric')).toBe(3);
    expect(await visitors('event:page==/b*')).toBe(2);
    expect(await visitors('event:goal==Signup')).toBe(1);
  });

  it('counts bots only with with_bots=true', async () => {
    expect((await get('aggregate', { ...CUSTOM, with_bots: 'true' })).body.results.visitors.value).toBe(5);
  });

  it('rejects unknown metrics and periods with a sentence', async () => {
    const metric = await get('aggregate', { metrics: 'visitorz' });
    expect(metric.status).toBe(400);
    expect(metric.body.error).toMatch(/visitorz/);
    const period = await get('aggregate', { period: '3w' });
    expect(period.status).toBe(400);
    expect(period.body.error).toMatch(/3w/);
  });

  it("answers a site the key cannot read with the reference's 401", async () => {
    const res = await get('aggregate', { site_id: 'nowhere.example', period: '7d' });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/^Invalid API key or site ID\./);
  });
});

describe('GET /api/v1/stats/timeseries', () => {
  it('lists every day of the period, empty ones as zero', async () => {
    const res = await get('timeseries', { period: '7d', metrics: 'visitors,visit_duration' });
    expect(res.body.results).toEqual([
      { date: '2024-01-03', visitors: 0, visit_duration: null },
      { date: '2024-01-04', visitors: 0, visit_duration: null },
      { date: '2024-01-05', visitors: 0, visit_duration: null },
      { date: '2024-01-06', visitors: 0, visit_duration: null },
      { date: '2024-01-07', visitors: 0, visit_duration: null },
      { date: '2024-01-08', visitors: 3, visit_duration: 120 },
      { date: '2024-01-09', visitors: 2, visit_duration: 600 },
    ]);
  });

  it('gives empty buckets null for page engagement metrics, as for visit duration', async () => {
    const res = await get('timeseries', { period: '7d', metrics: 'bounce_rate,time_on_page,scroll_depth', filters: 'event:page==/' });
    expect(res.body.results[0]).toEqual({ date: '2024-01-03', bounce_rate: 0, time_on_page: null, scroll_depth: null });
    expect(res.body.results[5]).toEqual({ date: '2024-01-08', bounce_rate: 50, time_on_page: 30, scroll_depth: 80 });
  });

  it("computes each bucket's conversion rate against that bucket's visitors", async () => {
    const res = await get('timeseries', { ...CUSTOM, metrics: 'visitors,conversion_rate', filters: 'event:goal==Signup' });
    // 8 Jan: alice of alice, bob and carol converted; 9 Jan: nobody of two.
    expect(res.body.results).toEqual([
      { date: '2024-01-08', visitors: 1, conversion_rate: 33.33 },
      { date: '2024-01-09', visitors: 0, conversion_rate: 0 },
    ]);
  });

  it("buckets period=all by day when the site's data spans less than a month", async () => {
    // The first event is on 8 Jan, today is 10 Jan: three days, not one month bucket.
    expect((await get('timeseries', { period: 'all' })).body.results).toEqual([
      { date: '2024-01-08', visitors: 3 },
      { date: '2024-01-09', visitors: 2 },
      { date: '2024-01-10', visitors: 0 },
    ]);
  });

  it('takes a month interval and refuses an unknown one', async () => {
    expect((await get('timeseries', { ...CUSTOM, interval: 'month' })).body.results).toEqual([{ date: '2024-01-01', visitors: 4 }]);
    const bad = await get('timeseries', { ...CUSTOM, interval: 'fortnight' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/fortnight/);
    // Names of Object members are not intervals or properties either.
    expect((await get('timeseries', { ...CUSTOM, interval: 'toString' })).status).toBe(400);
    expect((await get('breakdown', { ...CUSTOM, property: 'toString' })).status).toBe(400);
    expect((await get('breakdown', { ...CUSTOM, property: 'constructor' })).status).toBe(400);
  });
});

describe('GET /api/v1/stats/breakdown', () => {
  it('breaks down by a property, keyed by its name', async () => {
    const res = await get('breakdown', { ...CUSTOM, property: 'visit:source', metrics: 'visitors,bounce_rate' });
    expect(res.body.results).toEqual([
      { source: 'Direct / None', visitors: 2, bounce_rate: 100 },
      { source: 'Google', visitors: 2, bounce_rate: 0 },
      { source: 'Twitter', visitors: 1, bounce_rate: 100 },
    ]);
  });

  it('pages with limit and page, and leaves out empty countries', async () => {
    expect((await get('breakdown', { ...CUSTOM, property: 'visit:source', limit: '1', page: '2' })).body.results).toEqual([{ source: 'Google', visitors: 2 }]);
    expect((await get('breakdown', { ...CUSTOM, property: 'visit:country' })).body.results).toEqual([
      { country: 'DE', visitors: 2 },
      { country: 'FR', visitors: 1 },
      { country: 'US', visitors: 1 },
    ]);
  });

  it('counts the pageviews and events of the visits beside entry and exit pages', async () => {
    const entry = await get('breakdown', { ...CUSTOM, property: 'visit:entry_page', metrics: 'visitors,pageviews,events,bounce_rate' });
    expect(entry.status).toBe(200);
    expect(entry.body.results).toEqual([
      { entry_page: '/', visitors: 3, pageviews: 6, events: 7, bounce_rate: 33 },
      { entry_page: '/blog', visitors: 1, pageviews: 1, events: 1, bounce_rate: 100 },
      { entry_page: '/pricing', visitors: 1, pageviews: 1, events: 1, bounce_rate: 100 },
    ]);
    const exit = await get('breakdown', { ...CUSTOM, property: 'visit:exit_page', metrics: 'visits,pageviews' });
    expect(exit.body.results).toEqual([
      { exit_page: '/', visits: 2, pageviews: 4 },
      { exit_page: '/pricing', visits: 2, pageviews: 3 },
      { exit_page: '/blog', visits: 1, pageviews: 1 },
    ]);
  });

  it('keys custom properties by their own name', async () => {
    expect((await get('breakdown', { ...CUSTOM, property: 'event:props:plan', metrics: 'events' })).body.results).toEqual([
      { plan: '(none)', events: 8 },
      { plan: 'pro', events: 1 },
    ]);
  });

  it('names a non-numeric limit or page', async () => {
    const limit = await get('breakdown', { ...CUSTOM, property: 'visit:source', limit: 'ten' });
    expect(limit.status).toBe(400);
    expect(limit.body.error).toMatch(/^Please provide limit as a number between 1 and 1000\./);
    const page = await get('breakdown', { ...CUSTOM, property: 'visit:source', page: 'two' });
    expect(page.status).toBe(400);
    expect(page.body.error).toMatch(/^Please provide page as a positive number\./);
    expect((await get('breakdown', { ...CUSTOM })).body.error).toMatch(/`property` parameter is required/);
  });
});

describe('GET /api/v1/stats/realtime/visitors', () => {
  it('answers a bare integer of visitors in the last five minutes', async () => {
    clock.set('2024-01-09T15:22:00Z');
    try {
      const res = await fetch(`${t.url}/api/v1/stats/realtime/visitors?site_id=${account.domain}`, { headers: bearer(account.key) });
      expect(await res.text()).toBe('1');
    } finally {
      clock.set(NOW);
    }
  });
});

describe('repeated parameters', () => {
  it('answers 400 naming a parameter given twice, never a 500', async () => {
    for (const endpoint of ['aggregate', 'timeseries', 'breakdown?property=visit:source&', 'realtime/visitors']) {
      const join = endpoint.includes('?') ? '' : '?';
      const res = await fetch(`${t.url}/api/v1/stats/${endpoint}${join}site_id=${account.domain}&site_id=${account.domain}&metrics=visitors`, {
        headers: bearer(account.key),
      });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe('Parameter "site_id" is given 2 times; give it once.');
    }
  });
});
