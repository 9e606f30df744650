import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, bearer, type TestApp } from '../support/testApp.js';
import { startSmallSite } from './smallSite.js';

/**
 * Requests of the kind the reference's own API tests make, checked against the reference's
 * statuses and (for v1, whose clients match on them) its error sentences. Figures are hand-computed
 * from SMALL_SITE (see smallSite.ts).
 */

let t: TestApp;
let account: Account;

beforeAll(async () => {
  ({ t, account } = await startSmallSite());
});
afterAll(() => t.close());

async function query(body: Record<string, unknown>) {
  const res = await fetch(`${t.url}/api/v2/query`, {
    method: 'POST',
    headers: { ...bearer(account.key), 'content-type': 'application/json' },
    body: JSON.stringify({ site_id: account.domain, date_range: ['2024-01-08', '2024-01-09'], ...body }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function get(path: string, params: Record<string, string>) {
  const search = new URLSearchParams({ site_id: account.domain, period: 'custom', date: '2024-01-08,2024-01-09', ...params });
  const res = await fetch(`${t.url}/api/v1/stats/${path}?${search}`, { headers: bearer(account.key) });
  return { status: res.status, body: (await res.json()) as any };
}

const rows = (body: any) => body.results.map((r: any) => [...r.dimensions, ...r.metrics]);

describe('v2: validation the reference answers with a 400', () => {
  it.each([
    ['a repeated metric', { metrics: ['views_per_visit', 'visitors', 'visitors'] }],
    ['an unknown metric', { metrics: ['visitors', 'baa'] }],
    ['an unknown dimension', { metrics: ['visitors'], dimensions: ['badproperty'] }],
    ['an empty custom property dimension', { metrics: ['visitors'], dimensions: ['event:props:'] }],
    ['an unknown date range', { metrics: ['visitors'], date_range: 'bad_period' }],
    ['date-times without an offset', { metrics: ['visitors'], date_range: ['2024-01-08T00:00:00', '2024-01-08T23:59:59'] }],
    ['conversion_rate without a goal', { metrics: ['conversion_rate'], dimensions: ['event:page'] }],
    ['a visit metric by event:name', { metrics: ['visitors', 'bounce_rate'], dimensions: ['event:name'] }],
    ['a visit metric by a custom property', { metrics: ['visitors', 'bounce_rate'], dimensions: ['event:props:url'] }],
    ['views_per_visit with a page filter', { metrics: ['views_per_visit'], filters: [['is', 'event:page', ['/something']]] }],
    ['views_per_visit by event:name', { metrics: ['views_per_visit'], dimensions: ['event:name'] }],
    ['ordering by what is not queried', { metrics: ['visitors'], order_by: [['events', 'desc']] }],
    ['a page over 10,000 rows', { metrics: ['visitors'], pagination: { limit: 10_001 } }],
    ['a negative offset', { metrics: ['visitors'], pagination: { offset: -1 } }],
    ['include that is not an object', { metrics: ['visitors'], include: 'x' }],
    ['time labels without a time dimension', { metrics: ['visitors'], include: { time_labels: true } }],
    ['time:minute over more than 30 hours', { metrics: ['visitors'], date_range: '7d', dimensions: ['time:minute'] }],
    ['a goal that is not configured', { metrics: ['visitors'], filters: [['is', 'event:goal', ['Nope']]] }],
    ['scroll_depth without a page', { metrics: ['scroll_depth'] }],
    ['time_on_page without a page', { metrics: ['time_on_page'] }],
    ['exit_rate without visit:exit_page', { metrics: ['exit_rate'] }],
    ['an event metric by exit page', { metrics: ['pageviews'], dimensions: ['visit:exit_page'] }],
    ['has_done on an entry page', { metrics: ['visitors'], filters: [['has_done', ['is', 'visit:entry_page', ['/']]]] }],
    ['filters that are not an array', { metrics: ['visitors'], filters: 'x' }],
    ['no metrics', { metrics: [] }],
  ])('refuses %s', async (_label, body) => {
    const res = await query(body);
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
  });

  it("refuses an exact country filter that is not a two-letter code, in the reference's words", async () => {
    const res = await query({ metrics: ['pageviews'], filters: [['is', 'visit:country', ['USA']]] });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Invalid visit:country filter, visit:country needs to be a valid 2-letter country code.');
    expect((await query({ metrics: ['pageviews'], filters: [['is_not', 'visit:country', ['DE', 'Germany']]] })).status).toBe(400);
    // Substring and pattern operators may take any text.
    expect(rows((await query({ metrics: ['pageviews'], filters: [['contains', 'visit:country', ['USA']]] })).body)).toEqual([[0]]);
    expect(rows((await query({ metrics: ['pageviews'], filters: [['is', 'visit:country', ['DE']]] })).body)).toEqual([[3]]);
  });

  it("leads its messages with the reference's wording", async () => {
    const error = async (body: Record<string, unknown>) => (await query(body)).body.error as string;
    expect(await error({ metrics: ['visitors', 'baa'] })).toMatch(/^#\/metrics\/1: Invalid metric "baa"/);
    expect(await error({ metrics: ['visitors'], dimensions: ['badproperty'] })).toMatch(/^#\/dimensions\/0: Invalid dimension "badproperty"/);
    expect(await error({ metrics: ['visitors'], dimensions: ['event:props:'] })).toMatch(/^#\/dimensions\/0: Invalid dimension "event:props:"/);
    expect(await error({ metrics: ['visitors'], date_range: 'bad_period' })).toMatch(/^#\/date_range: Invalid date range "bad_period"/);
    expect(await error({ metrics: ['views_per_visit', 'visitors', 'visitors'] })).toMatch(/^#\/metrics: Expected items to be unique but they were not/);
    expect(await error({ metrics: ['conversion_rate'], dimensions: ['event:page'] })).toMatch(
      /^Metric `conversion_rate` can only be queried with event:goal filters or dimensions/,
    );
    expect(await error({ metrics: ['visitors', 'bounce_rate'], dimensions: ['event:name'] })).toMatch(
      /^Session metric\(s\) `bounce_rate` cannot be queried along with event dimensions/,
    );
    expect(await error({ metrics: ['views_per_visit'], filters: [['is', 'event:page', ['/x']]] })).toMatch(
      /^Metric `views_per_visit` cannot be queried with a filter on `event:page`/,
    );
    expect(await error({ metrics: ['scroll_depth'] })).toMatch(/^Metric `scroll_depth` can only be queried with event:page filters or dimensions/);
  });

  it('names a goal that is not configured as the reference does', async () => {
    const res = await query({ metrics: ['visitors'], filters: [['is', 'event:goal', ['Nope']]] });
    expect(res.body.error).toMatch(/^The goal `Nope` is not configured for this site\./);
    // contains may select no goal at all; that is zero, not an error.
    expect(rows((await query({ metrics: ['visitors'], filters: [['contains', 'event:goal', ['Nope']]] })).body)).toEqual([[0]]);
  });
});

describe('v2: response shape', () => {
  it('echoes the resolved query with its default order and pagination', async () => {
    const res = await query({ metrics: ['visitors', 'pageviews'], dimensions: ['time:day'], filters: [['is', 'visit:country', ['DE']]] });
    expect(res.status).toBe(200);
    expect(res.body.query).toMatchObject({
      site_id: account.domain,
      metrics: ['visitors', 'pageviews'],
      date_range: ['2024-01-08T00:00:00+00:00', '2024-01-09T23:59:59+00:00'],
      dimensions: ['time:day'],
      filters: [['is', 'visit:country', ['DE']]],
      order_by: [
        ['time:day', 'asc'],
        ['visitors', 'desc'],
      ],
      pagination: { limit: 100, offset: 0 },
    });
    expect(rows(res.body)).toEqual([['2024-01-08', 2, 3]]);
  });

  it('orders ascending on request and pages with offset', async () => {
    const asc = await query({ metrics: ['visitors'], dimensions: ['visit:source'], order_by: [['visitors', 'asc']] });
    expect(rows(asc.body)).toEqual([
      ['Twitter', 1],
      ['Direct / None', 2],
      ['Google', 2],
    ]);
    const second = await query({ metrics: ['visitors'], dimensions: ['visit:source'], pagination: { limit: 1, offset: 1 } });
    expect(rows(second.body)).toEqual([['Google', 2]]);
  });
});

describe("v1: the reference's error sentences", () => {
  it.each([
    ['bounce_rate', 'event:name==Signup', 'event:name'],
    ['visit_duration', 'event:goal==Signup', 'event:goal'],
    ['visits', 'event:props:plan==pro', 'event:props:plan'],
    ['views_per_visit', 'event:name==Signup', 'event:name'],
  ])('refuses the visit metric %s with a filter on %s', async (metric, filters, property) => {
    const res = await get('aggregate', { metrics: `pageviews,${metric}`, filters });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(`Session metric \`${metric}\` cannot be queried when using a filter on \`${property}\`.`);
  });

  it('refuses visit metrics in breakdowns by event-only properties and with their filters', async () => {
    const byName = await get('breakdown', { property: 'event:name', metrics: 'visitors,bounce_rate' });
    expect(byName.status).toBe(400);
    expect(byName.body.error).toBe('Session metric `bounce_rate` cannot be queried for breakdown by `event:name`.');
    const byPage = await get('breakdown', { property: 'event:page', metrics: 'visitors,bounce_rate', filters: 'event:name==Signup' });
    expect(byPage.body.error).toBe('Session metric `bounce_rate` cannot be queried when using a filter on `event:name`.');
    const vpv = await get('breakdown', { property: 'visit:source', metrics: 'visitors,views_per_visit' });
    expect(vpv.status).toBe(400);
    expect(vpv.body.error).toBe('Metric `views_per_visit` is not supported in breakdown queries.');
  });

  it('keeps time_on_page to pages and conversion_rate to goals', async () => {
    expect((await get('aggregate', { metrics: 'time_on_page' })).body.error).toBe(
      'Metric `time_on_page` can only be queried in a page breakdown or with a page filter.',
    );
    expect((await get('aggregate', { metrics: 'time_on_page', filters: 'event:goal==Signup' })).body.error).toBe(
      'Metric `time_on_page` cannot be queried when filtering by `event:goal`',
    );
    expect((await get('breakdown', { property: 'visit:source', metrics: 'time_on_page' })).body.error).toBe(
      'Metric `time_on_page` is not supported in breakdown queries (except `event:page` breakdown)',
    );
    expect((await get('aggregate', { metrics: 'time_on_page', filters: 'event:page==/' })).body.results).toEqual({ time_on_page: { value: 30 } });
    const cr = await get('aggregate', { metrics: 'conversion_rate' });
    expect(cr.status).toBe(400);
    expect(cr.body.error).toBe('Metric `conversion_rate` can only be queried in a goal breakdown or with a goal filter');
  });

  it('words parameter errors as the reference does', async () => {
    expect((await get('aggregate', { metrics: 'visitors,visitors' })).body.error).toBe('Metrics cannot be queried multiple times.');
    expect((await get('aggregate', { metrics: 'baa' })).body.error).toMatch(/^The metric `baa` is not recognized\./);
    expect((await get('aggregate', { period: 'bad' })).body.error).toMatch(/^Error parsing `period` parameter: invalid period `bad`\./);
    expect((await get('aggregate', { period: 'day', date: '2021-13-01' })).body.error).toMatch(/^Error parsing `date` parameter/);
    expect((await get('aggregate', { date: '' })).status).toBe(400);
    const noDate = await fetch(`${t.url}/api/v1/stats/aggregate?site_id=${account.domain}&period=custom`, { headers: bearer(account.key) });
    expect(((await noDate.json()) as any).error).toMatch(/^The `date` parameter is required when using a custom period\./);
    expect((await get('aggregate', { date: '2024-01-08' })).body.error).toMatch(/^Invalid format for `date` parameter\./);
    expect((await get('timeseries', { interval: 'foo' })).body.error).toMatch(/^Error parsing `interval` parameter: invalid interval `foo`\./);
    expect((await get('aggregate', { filters: 'badprop==x' })).body.error).toMatch(/^Invalid filter property 'badprop'\./);
    expect((await get('aggregate', { filters: 'event:goal==Nope' })).body.error).toMatch(/^The goal `Nope` is not configured for this site\./);
    expect((await get('aggregate', { filters: 'event:goal==Visit /x' })).body.error).toMatch(
      /^The pageview goal for the pathname `\/x` is not configured for this site\./,
    );
  });

  it('words breakdown parameter errors as the reference does', async () => {
    const noProperty = await get('breakdown', {});
    expect(noProperty.status).toBe(400);
    expect(noProperty.body.error).toBe('The `property` parameter is required. Please provide at least one property to show a breakdown by.');
    expect((await get('breakdown', { property: 'event:hostname' })).body.error).toMatch(
      /^Property 'event:hostname' is currently not supported for breakdowns\./,
    );
    expect((await get('breakdown', { property: 'badproperty' })).body.error).toMatch(/^Invalid property 'badproperty'\./);
    for (const limit of ['0', '1001', 'abc']) {
      const res = await get('breakdown', { property: 'visit:source', limit });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^Please provide limit as a number between 1 and 1000\./);
    }
    expect((await get('breakdown', { property: 'visit:source', page: '0' })).body.error).toMatch(/^Please provide page as a positive number\./);
  });

  it('drops an exact country clause that is not a two-letter code instead of refusing it', async () => {
    expect((await get('aggregate', { filters: 'visit:country==USA' })).body.results).toEqual({ visitors: { value: 4 } });
    expect((await get('aggregate', { filters: 'visit:country==USA;visit:browser==Chrome' })).body.results).toEqual({ visitors: { value: 2 } });
    expect((await get('aggregate', { filters: 'visit:country==DE' })).body.results).toEqual({ visitors: { value: 2 } });
  });

  it('still leaves out empty countries in a country breakdown', async () => {
    expect((await get('breakdown', { property: 'visit:country' })).body.results).toEqual([
      { country: 'DE', visitors: 2 },
      { country: 'FR', visitors: 1 },
      { country: 'US', visitors: 1 },
    ]);
  });

  it('lists goals with their site-wide conversion rate', async () => {
    expect((await get('breakdown', { property: 'event:goal', metrics: 'visitors,events,conversion_rate' })).body.results).toEqual([
      { goal: 'Signup', visitors: 1, events: 1, conversion_rate: 25 },
    ]);
  });
});
