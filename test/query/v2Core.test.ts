import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, bearer, type TestApp } from '../support/testApp.js';
import { startSmallSite } from './smallSite.js';

let t: TestApp;
let account: Account;

beforeAll(async () => {
  ({ t, account } = await startSmallSite({ goals: [{ pagePath: '/blog*', displayName: 'Blog' }] }));
});
afterAll(() => t.close());

async function query(body: Record<string, unknown>) {
  const res = await fetch(`${t.url}/api/v2/query`, {
    method: 'POST',
    headers: { ...bearer(account.key), 'content-type': 'application/json' },
    body: JSON.stringify({ site_id: account.domain, ...body }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function ok(body: Record<string, unknown>) {
  const res = await query(body);
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const RANGE = ['2024-01-08', '2024-01-09'];
const rows = (body: any) => body.results.map((r: any) => [...r.dimensions, ...r.metrics]);

describe('aggregates', () => {
  it('computes the visit and event metrics over the whole range', async () => {
    const body = await ok({ metrics: ['visitors', 'visits', 'pageviews', 'events', 'bounce_rate', 'visit_duration', 'views_per_visit'], date_range: RANGE });
    expect(rows(body)).toEqual([[4, 5, 8, 9, 60, 312, 1.6]]);
    // Two days are under 48 hours, so bare time would be hourly.
    expect(body.meta).toMatchObject({ interval: 'hour', sources: ['raw'], sample_rate: 1, present_index: null, metric_warnings: {} });
    expect(body.query.date_range).toEqual(['2024-01-08T00:00:00+00:00', '2024-01-09T23:59:59+00:00']);
  });

  it('answers visitors alone from visits and with event metrics from events alike', async () => {
    expect(rows(await ok({ metrics: ['visitors'], date_range: RANGE }))).toEqual([[4]]);
    expect(rows(await ok({ metrics: ['visitors', 'pageviews'], date_range: RANGE }))).toEqual([[4, 8]]);
  });
});

describe('dimensions', () => {
  it('refuses names of Object members as dimensions', async () => {
    for (const dimension of ['toString', 'constructor', '__proto__']) {
      const res = await query({ metrics: ['visitors'], date_range: RANGE, dimensions: [dimension] });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_dimension');
    }
  });

  it('takes an empty order_by as the default order', async () => {
    const body = { metrics: ['visitors'], date_range: RANGE, dimensions: ['visit:source'] };
    expect(rows(await ok({ ...body, order_by: [] }))).toEqual(rows(await ok(body)));
  });

  it('breaks visitors down by source with the Direct / None label, busiest first', async () => {
    expect(rows(await ok({ metrics: ['visitors'], date_range: RANGE, dimensions: ['visit:source'] }))).toEqual([
      ['Direct / None', 2],
      ['Google', 2],
      ['Twitter', 1],
    ]);
  });

  it('breaks pageviews down by page and accepts the event:path alias', async () => {
    const expected = [
      ['/', 4],
      ['/blog', 2],
      ['/pricing', 2],
    ];
    expect(rows(await ok({ metrics: ['pageviews'], date_range: RANGE, dimensions: ['event:page'] }))).toEqual(expected);
    expect(rows(await ok({ metrics: ['pageviews'], date_range: RANGE, dimensions: ['event:path'] }))).toEqual(expected);
  });

  it('gives a page breakdown the bounce rate of visits that entered there', async () => {
    // Entered on /: alice (not bounced), carol (bounced), dave (not) → 33; /pricing: bob bounced → 100; /blog: alice bounced → 100.
    expect(rows(await ok({ metrics: ['visitors', 'bounce_rate'], date_range: RANGE, dimensions: ['event:page'] }))).toEqual([
      ['/', 3, 33],
      ['/blog', 2, 100],
      ['/pricing', 2, 100],
    ]);
  });

  it('buckets by day and labels empty device and screen values "(not set)"', async () => {
    expect(rows(await ok({ metrics: ['visitors'], date_range: RANGE, dimensions: ['time:day'] }))).toEqual([
      ['2024-01-08', 3],
      ['2024-01-09', 2],
    ]);
    const hourly = await ok({ metrics: ['pageviews'], date_range: RANGE, dimensions: ['time'] });
    expect(hourly.meta.interval).toBe('hour');
    expect(rows(hourly)).toEqual([
      ['2024-01-08 10:00:00', 2],
      ['2024-01-08 11:00:00', 1],
      ['2024-01-08 12:00:00', 1],
      ['2024-01-09 09:00:00', 1],
      ['2024-01-09 15:00:00', 3],
    ]);
    expect(rows(await ok({ metrics: ['visits'], date_range: RANGE, dimensions: ['visit:device_type'], order_by: [['visit:device_type', 'asc']] }))).toEqual([
      ['(not set)', 1],
      ['Desktop', 3],
      ['Mobile', 1],
    ]);
    expect(rows(await ok({ metrics: ['visits'], date_range: RANGE, dimensions: ['visit:screen_size'], order_by: [['visits', 'desc']] }))).toEqual([
      ['Desktop', 2],
      ['(not set)', 1],
      ['Laptop', 1],
      ['Mobile', 1],
    ]);
  });

  it('lists goals and custom properties', async () => {
    expect(rows(await ok({ metrics: ['visitors', 'events'], date_range: RANGE, dimensions: ['event:goal'] }))).toEqual([
      ['Blog', 2, 2],
      ['Signup', 1, 1],
    ]);
    expect(rows(await ok({ metrics: ['events'], date_range: RANGE, dimensions: ['event:props:plan'] }))).toEqual([
      ['(none)', 8],
      ['pro', 1],
    ]);
  });
});

describe('include', () => {
  it('lists every time label and counts every group on request', async () => {
    const labelled = await ok({ metrics: ['visitors'], date_range: ['2024-01-07', '2024-01-09'], dimensions: ['time:day'], include: { time_labels: true } });
    expect(labelled.meta.time_labels).toEqual(['2024-01-07', '2024-01-08', '2024-01-09']);
    const counted = await ok({
      metrics: ['pageviews'],
      date_range: RANGE,
      dimensions: ['event:page'],
      pagination: { limit: 1 },
      include: { total_rows: true },
    });
    expect(counted.meta.total_rows).toBe(3);
    expect(counted.results).toHaveLength(1);
  });
});

describe('percentage', () => {
  it("gives each group's share of all visitors under the same filters", async () => {
    const sources = await ok({ metrics: ['visitors', 'percentage'], date_range: RANGE, dimensions: ['visit:source'] });
    expect(rows(sources)).toEqual([
      ['Direct / None', 2, 50],
      ['Google', 2, 50],
      ['Twitter', 1, 25],
    ]);
    const pages = await ok({ metrics: ['pageviews', 'percentage'], date_range: RANGE, dimensions: ['event:page'], filters: [['is', 'visit:country', ['DE']]] });
    // alice and carol came from Germany; both saw /, only alice /pricing (and /blog on a later visit with no country).
    expect(rows(pages)).toEqual([
      ['/', 2, 100],
      ['/pricing', 1, 50],
    ]);
  });
});

describe('trim_relative_date_range', () => {
  it('ends month and year today instead of at their last day', async () => {
    const trimmed = await ok({
      metrics: ['visitors'],
      date_range: 'month',
      dimensions: ['time:day'],
      include: { time_labels: true, trim_relative_date_range: true },
    });
    expect(trimmed.meta.time_labels.at(-1)).toBe('2024-01-10');
    expect(trimmed.query.date_range).toEqual(['2024-01-01T00:00:00+00:00', '2024-01-10T23:59:59+00:00']);
    expect(trimmed.query.include).toEqual({ time_labels: true, trim_relative_date_range: true });
    const year = await ok({ metrics: ['visitors'], date_range: 'year', include: { trim_relative_date_range: true } });
    expect(year.query.date_range[1]).toBe('2024-01-10T23:59:59+00:00');
    const whole = await ok({ metrics: ['visitors'], date_range: 'month', dimensions: ['time:day'], include: { time_labels: true } });
    expect(whole.meta.time_labels.at(-1)).toBe('2024-01-31');
  });
});

describe('filters', () => {
  it('applies every operator on event:name', async () => {
    const events = async (filter: unknown[]) => rows(await ok({ metrics: ['events'], date_range: RANGE, filters: [filter] }))[0][0];
    expect(await events(['is', 'event:name', ['Signup']])).toBe(1);
    expect(await events(['is_not', 'event:name', ['Signup']])).toBe(8);
    expect(await events(['contains', 'event:name', ['sign'], { case_sensitive: false }])).toBe(1);
    expect(await events(['contains', 'event:name', ['sign']])).toBe(0);
    expect(await events(['contains_not', 'event:name', ['page']])).toBe(1);
    expect(await events(['matches', 'event:name', ['^S.+p$']])).toBe(1);
    expect(await events(['matches_not', 'event:name', ['^page']])).toBe(1);
  });

  it('ANDs separate filters and ORs values', async () => {
    expect(rows(await ok({ metrics: ['visitors'], date_range: RANGE, filters: [['is', 'visit:country', ['DE', 'FR']]] }))).toEqual([[3]]);
    expect(
      rows(
        await ok({
          metrics: ['visitors'],
          date_range: RANGE,
          filters: [
            ['is', 'visit:country', ['DE', 'FR']],
            ['is', 'visit:browser', ['Chrome']],
          ],
        }),
      ),
    ).toEqual([[2]]);
    expect(rows(await ok({ metrics: ['visitors'], date_range: RANGE, filters: [['is', 'visit:source', ['Direct / None']]] }))).toEqual([[2]]);
  });

  it('combines filters with and, or, not', async () => {
    const pageviews = async (filter: unknown[]) => rows(await ok({ metrics: ['pageviews'], date_range: RANGE, filters: [filter] }))[0][0];
    expect(
      await pageviews([
        'or',
        [
          ['is', 'event:page', ['/blog']],
          ['is', 'visit:country', ['US']],
        ],
      ]),
    ).toBe(3);
    expect(await pageviews(['not', ['is', 'event:page', ['/']]])).toBe(4);
    expect(
      await pageviews([
        'and',
        [
          ['is', 'event:page', ['/']],
          ['is', 'visit:source', ['Google']],
        ],
      ]),
    ).toBe(3);
  });

  it('selects visits by what they did with has_done and has_not_done', async () => {
    expect(rows(await ok({ metrics: ['pageviews', 'visits'], date_range: RANGE, filters: [['has_done', ['is', 'event:name', ['Signup']]]] }))).toEqual([
      [2, 1],
    ]);
    expect(rows(await ok({ metrics: ['pageviews', 'visits'], date_range: RANGE, filters: [['has_not_done', ['is', 'event:name', ['Signup']]]] }))).toEqual([
      [6, 4],
    ]);
  });

  it('filters on goals and custom properties', async () => {
    expect(rows(await ok({ metrics: ['visitors', 'conversion_rate'], date_range: RANGE, filters: [['is', 'event:goal', ['Signup']]] }))).toEqual([[1, 25]]);
    expect(rows(await ok({ metrics: ['visitors'], date_range: RANGE, filters: [['is', 'event:goal', ['Blog']]] }))).toEqual([[2]]);
    expect(rows(await ok({ metrics: ['events'], date_range: RANGE, filters: [['is', 'event:props:plan', ['pro']]] }))).toEqual([[1]]);
    expect(rows(await ok({ metrics: ['events'], date_range: RANGE, filters: [['is', 'event:props:plan', ['(none)']]] }))).toEqual([[8]]);
  });

  it('filters visits on entry and exit pages', async () => {
    expect(rows(await ok({ metrics: ['visits', 'bounce_rate'], date_range: RANGE, filters: [['is', 'visit:entry_page', ['/']]] }))).toEqual([[3, 33]]);
    expect(rows(await ok({ metrics: ['pageviews'], date_range: RANGE, filters: [['is', 'visit:exit_page', ['/pricing']]] }))).toEqual([[3]]);
  });
});

describe('page metrics', () => {
  it('computes time on page and scroll depth from engagement', async () => {
    expect(rows(await ok({ metrics: ['time_on_page', 'scroll_depth'], date_range: RANGE, filters: [['is', 'event:page', ['/']]] }))).toEqual([[30, 80]]);
  });

  it('reports page metrics as null, not an error, where nothing was measured', async () => {
    // 10 Jan has no events at all; /pricing has pageviews but no engagement.
    expect(
      rows(await ok({ metrics: ['time_on_page', 'scroll_depth'], date_range: ['2024-01-10', '2024-01-10'], filters: [['is', 'event:page', ['/']]] })),
    ).toEqual([[null, null]]);
    expect(rows(await ok({ metrics: ['scroll_depth', 'visitors'], date_range: RANGE, filters: [['is', 'event:page', ['/pricing']]] }))).toEqual([[null, 2]]);
  });

  it('computes exit rate per exit page', async () => {
    // Exits: /pricing alice, bob (2 of 2 pageviews); /blog alice (1 of 2); / carol, dave (2 of 4).
    expect(rows(await ok({ metrics: ['exit_rate'], date_range: RANGE, dimensions: ['visit:exit_page'], order_by: [['visit:exit_page', 'asc']] }))).toEqual([
      ['/', 50],
      ['/blog', 50],
      ['/pricing', 100],
    ]);
  });

  it('aggregates numeric custom properties', async () => {
    expect(
      rows(
        await ok({
          metrics: ['sum(event:props:seats)', 'avg(event:props:seats)', 'min(event:props:seats)', 'max(event:props:seats)', 'p50(event:props:seats)'],
          date_range: RANGE,
        }),
      ),
    ).toEqual([[8, 4, 3, 5, 4]]);
  });
});

describe('comparisons', () => {
  it('compares a day with the previous one', async () => {
    const body = await ok({
      metrics: ['visitors', 'bounce_rate'],
      date_range: ['2024-01-09', '2024-01-09'],
      include: { comparisons: { mode: 'previous_period' } },
    });
    expect(body.results).toEqual([{ dimensions: [], metrics: [2, 50], comparison: { dimensions: [], metrics: [3, 67], change: [-33, -17] } }]);
    expect(body.query.include.comparisons.date_range).toEqual(['2024-01-08T00:00:00+00:00', '2024-01-08T23:59:59+00:00']);
  });
});

describe('errors', () => {
  it('names an unknown key and where it is', async () => {
    const res = await query({ metrics: ['visitors'], date_range: '7d', include: { comparisons: { mode: 'previous_period', colour: 'red' } } });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('"colour"');
    expect(res.body.error).toContain('#/include/comparisons');
  });

  it('says a key of the wrong type is of the wrong type, and only a missing one is required', async () => {
    const wrongType = await query({ metrics: 'visitors', date_range: '7d' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error).toBe('#/metrics must be an array of metric names.');
    expect((await query({ metrics: ['visitors'], date_range: '7d', dimensions: 'event:page' })).body.error).toBe(
      '#/dimensions must be an array of dimension names.',
    );
    expect((await query({ metrics: ['visitors'], date_range: '7d', filters: 'x' })).body.error).toBe('#/filters must be an array of filters.');
    expect((await query({ date_range: '7d' })).body.error).toBe('#/metrics is required.');
    expect((await query({ metrics: ['visitors'] })).body.error).toBe('#/date_range is required.');
  });

  it('rejects unknown metrics, dimensions and operators with the choices', async () => {
    expect((await query({ metrics: ['visitorz'], date_range: '7d' })).body.error).toMatch(/^#\/metrics\/0: Invalid metric "visitorz".*visitors/);
    expect((await query({ metrics: ['visitors'], date_range: '7d', dimensions: ['visit:planet'] })).body.error).toMatch(
      /^#\/dimensions\/0: Invalid dimension "visit:planet".*visit:source/,
    );
    expect((await query({ metrics: ['visitors'], date_range: '7d', filters: [['equals', 'visit:source', ['x']]] })).body.error).toMatch(
      /unknown operator "equals".*is_not/,
    );
  });
});
