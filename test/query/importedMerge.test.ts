import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORTED_TABLES } from '../../src/query/plan/importedPlan.js';
import { isSessionDimension } from '../../src/query/plan/resolve.js';
import { type Account, bearer, createAccount, type TestApp } from '../support/testApp.js';
import { importPlausibleExport } from './plausibleExport.js';
import { startSmallSite } from './smallSite.js';

/**
 * Imported daily data merged into answers. Native data: SMALL_SITE (test/query/smallSite.ts, 8–9
 * January 2024: 4 visitors, 5 visits, 8 pageviews, 9 events, 3 bounces, 1,560 s of visits).
 * Imported: the hand-written Plausible export in fixtures/plausible-export (1–2 January, through
 * test/query/plausibleExport.ts):
 *   visitors   1 Jan 10 visitors, 25 pageviews, 4 bounces, 12 visits, 600 s; 2 Jan 7, 9, 6, 8, 120 s
 *   sources    1 Jan Google 8 visitors / 9 visits / 3 bounces / 500 s; Direct 2 / 3 / 1 / 100 s;
 *              2 Jan Hacker News 7 / 8 / 6 / 120 s
 *   pages      / 9 + 5 visitors, 15 + 9 pageviews, 600 s over 10 engaged visits, scroll 300 over 5;
 *              /pricing 4 visitors, 10 pageviews, 40 s over 4, scroll 100 over 2
 *   entry      / 9 visitors, 10 entrances, 3 bounces, 20 pageviews; /pricing 4, 5, 4, 6
 *   events     Signup 3 + 2 visitors, 3 + 4 events; Outbound Link: Click 1, 1
 *   locations  DE 6 visitors; FR 3
 */
const ALL = ['2024-01-01', '2024-01-09'];

let t: TestApp;
let account: Account;

beforeAll(async () => {
  ({ t, account } = await startSmallSite());
  expect(await importPlausibleExport(t, account)).toMatchObject({ status: 'completed' });
});
afterAll(() => t.close());

async function v2(body: Record<string, unknown>, site = account) {
  const res = await fetch(`${t.url}/api/v2/query`, {
    method: 'POST',
    headers: { ...bearer(site.key), 'content-type': 'application/json' },
    body: JSON.stringify({ site_id: site.domain, ...body }),
  });
  const answer = await res.json();
  expect(res.status, JSON.stringify(answer)).toBe(200);
  return answer;
}

async function v1(path: string, params: Record<string, string>) {
  const res = await fetch(`${t.url}/api/v1/stats/${path}?${new URLSearchParams({ site_id: account.domain, ...params })}`, { headers: bearer(account.key) });
  const answer = await res.json();
  expect(res.status, JSON.stringify(answer)).toBe(200);
  return answer;
}

const rows = (body: { results: { dimensions: string[]; metrics: unknown[] }[] }) => body.results.map((r) => [...r.dimensions, ...r.metrics]);
const VISIT_METRICS = ['visitors', 'visits', 'pageviews', 'events', 'bounce_rate', 'visit_duration', 'views_per_visit'];
const UNSUPPORTED = /^Imported stats are not included in the results because query parameters are not supported: /;

describe('v2 with include.imports', () => {
  it('adds imported totals to native ones and re-weighs the rates', async () => {
    const native = await v2({ metrics: VISIT_METRICS, date_range: ALL });
    expect(rows(native)).toEqual([[4, 5, 8, 9, 60, 312, 1.6]]);
    expect(native.meta).not.toHaveProperty('imports_included');
    const merged = await v2({ metrics: VISIT_METRICS, date_range: ALL, include: { imports: true } });
    // 4+17 visitors, 5+20 visits, 8+34 pageviews, 9+34 events (imported events are pageviews),
    // (3+10)/25 bounces = 52 %, (1560+720)/25 = 91.2 s, (8+34)/25 = 1.68 pages per visit.
    expect(rows(merged)).toEqual([[21, 25, 42, 43, 52, 91, 1.68]]);
    expect(merged.meta.imports_included).toBe(true);
    expect(merged.meta).not.toHaveProperty('imports_skip_reason');
    expect(merged.query.include).toEqual({ imports: true });
  });

  it('merges groups of a breakdown by their labels', async () => {
    const sources = await v2({
      metrics: ['visitors', 'visits', 'bounce_rate', 'visit_duration'],
      date_range: ALL,
      dimensions: ['visit:source'],
      include: { imports: true },
    });
    expect(rows(sources)).toEqual([
      // Google: 2+8 visitors, 2+9 visits, (0+3)/11 = 27 %, (1560+500)/11 = 187 s.
      ['Google', 10, 11, 27, 187],
      ['Hacker News', 7, 8, 75, 15],
      // Direct: 2+2 visitors, 2+3 visits, (2+1)/5 = 60 %, (0+100)/5 = 20 s.
      ['Direct / None', 4, 5, 60, 20],
      ['Twitter', 1, 1, 100, 0],
    ]);
    const pages = await v2({ metrics: ['visitors', 'pageviews'], date_range: ALL, dimensions: ['event:page'], include: { imports: true } });
    expect(rows(pages)).toEqual([
      ['/', 17, 28],
      ['/pricing', 6, 12],
      ['/blog', 2, 2],
    ]);
    const names = await v2({ metrics: ['visitors', 'events'], date_range: ALL, dimensions: ['event:name'], include: { imports: true } });
    expect(rows(names)).toEqual([
      ['Signup', 6, 8],
      ['pageview', 4, 8],
      ['Outbound Link: Click', 1, 1],
    ]);
    const goals = await v2({ metrics: ['visitors', 'events'], date_range: ALL, dimensions: ['event:goal'], include: { imports: true } });
    expect(rows(goals)).toEqual([['Signup', 6, 8]]);
  });

  it('weighs time on page and scroll depth by the visits that measured them', async () => {
    const pages = await v2({
      metrics: ['visitors', 'time_on_page', 'scroll_depth'],
      date_range: ALL,
      dimensions: ['event:page'],
      include: { imports: true },
    });
    expect(rows(pages)).toEqual([
      // Native: carol engaged 30 s and scrolled 80 % on /. So / (30+600)/(1+10) = 57 s, (80+300)/(1+5) = 63 %.
      ['/', 17, 57, 63],
      ['/pricing', 6, 10, 50],
      ['/blog', 2, null, null],
    ]);
  });

  it('buckets imported days by day, week and month', async () => {
    const days = await v2({ metrics: ['visitors'], date_range: ALL, dimensions: ['time:day'], include: { imports: true } });
    expect(rows(days)).toEqual([
      ['2024-01-01', 10],
      ['2024-01-02', 7],
      ['2024-01-08', 3],
      ['2024-01-09', 2],
    ]);
    // Imported visitors of several days are summed: daily totals cannot be told apart by person.
    const weeks = await v2({ metrics: ['visitors'], date_range: ALL, dimensions: ['time:week'], include: { imports: true } });
    expect(rows(weeks)).toEqual([
      ['2024-01-01', 17],
      ['2024-01-08', 4],
    ]);
    const months = await v2({ metrics: ['pageviews'], date_range: ALL, dimensions: ['time:month'], include: { imports: true } });
    expect(rows(months)).toEqual([['2024-01-01', 42]]);
  });

  it('filters imported rows on the columns of their table', async () => {
    const google = await v2({ metrics: ['visitors'], date_range: ALL, filters: [['is', 'visit:source', ['Google']]], include: { imports: true } });
    expect(rows(google)).toEqual([[10]]);
    const direct = await v2({ metrics: ['visits'], date_range: ALL, filters: [['is', 'visit:source', ['Direct / None']]], include: { imports: true } });
    expect(rows(direct)).toEqual([[5]]);
    const germany = await v2({ metrics: ['visitors'], date_range: ALL, filters: [['is', 'visit:country', ['DE']]], include: { imports: true } });
    expect(rows(germany)).toEqual([[8]]);
    const notHome = await v2({ metrics: ['pageviews'], date_range: ALL, filters: [['not', ['is', 'event:page', ['/']]]], include: { imports: true } });
    // Native /blog 2 + /pricing 2, imported /pricing 10.
    expect(rows(notHome)).toEqual([[14]]);
    const signups = await v2({ metrics: ['visitors'], date_range: ALL, filters: [['is', 'event:goal', ['Signup']]], include: { imports: true } });
    expect(rows(signups)).toEqual([[6]]);
  });

  it('adds imported visitors to both sides of shares and conversion rates', async () => {
    // Signup: native 1 of 4 visitors, imported 5 (custom events) of 17 (daily visitors) → 6 / 21.
    const signups = await v2({
      metrics: ['visitors', 'conversion_rate'],
      date_range: ALL,
      filters: [['is', 'event:goal', ['Signup']]],
      include: { imports: true },
    });
    expect(rows(signups)).toEqual([[6, 28.57]]);
    const goals = await v2({ metrics: ['visitors', 'conversion_rate'], date_range: ALL, dimensions: ['event:goal'], include: { imports: true } });
    expect(rows(goals)).toEqual([['Signup', 6, 28.57]]);
    // Every source against all 4 + 17 visitors, Hacker News (imported only) included.
    const sources = await v2({ metrics: ['visitors', 'percentage'], date_range: ALL, dimensions: ['visit:source'], include: { imports: true } });
    expect(rows(sources)).toEqual([
      ['Google', 10, 47.62],
      ['Hacker News', 7, 33.33],
      ['Direct / None', 4, 19.05],
      ['Twitter', 1, 4.76],
    ]);
    // Per day: 3 of 10 imported visitors on 1 Jan, 2 of 7 on 2 Jan, 1 of 3 native on 8 Jan.
    const daily = await v2({
      metrics: ['group_conversion_rate'],
      date_range: ALL,
      dimensions: ['time:day', 'event:goal'],
      include: { imports: true },
    });
    expect(rows(daily)).toEqual([
      ['2024-01-01', 'Signup', 30],
      ['2024-01-02', 'Signup', 28.57],
      ['2024-01-08', 'Signup', 33.33],
    ]);
  });

  it('answers from native data alone, saying why, where imports cannot be included', async () => {
    const skipped = async (body: Record<string, unknown>, reason: string, nativeRows: unknown[]) => {
      const answer = await v2({ date_range: ALL, ...body, include: { ...(body.include ?? {}), imports: true } });
      expect(answer.meta.imports_included).toBe(false);
      expect(answer.meta.imports_skip_reason).toBe(reason);
      expect(rows(answer)).toEqual(nativeRows);
      return answer.meta.imports_warning;
    };
    expect(
      await skipped({ metrics: ['pageviews'], dimensions: ['time:hour'], date_range: ['2024-01-09', '2024-01-09'] }, 'unsupported_interval', [
        ['2024-01-09 09:00:00', 1],
        ['2024-01-09 15:00:00', 3],
      ]),
    ).toBe('Imported stats are not included because the time dimension (i.e. the interval) is too short.');
    expect(await skipped({ metrics: ['visitors'], date_range: ['2024-01-08', '2024-01-09'] }, 'out_of_range', [[4]])).toBeUndefined();
    expect(
      await skipped({ metrics: ['visitors', 'bounce_rate'], dimensions: ['event:page'] }, 'unsupported_query', [
        ['/', 3, 33],
        ['/blog', 2, 100],
        ['/pricing', 2, 100],
      ]),
    ).toMatch(/imported pages carry no bounce_rate/);
    expect(
      await skipped({ metrics: ['visitors'], dimensions: ['visit:source'], filters: [['is', 'visit:country', ['FR']]] }, 'unsupported_query', [['Google', 1]]),
    ).toMatch(/no imported table holds all of visit:country, visit:source/);
    expect(
      await skipped(
        {
          metrics: ['visitors', 'conversion_rate'],
          filters: [
            ['is', 'event:goal', ['Signup']],
            ['is', 'visit:source', ['Google']],
          ],
        },
        'unsupported_query',
        [[1, 50]],
      ),
    ).toMatch(/no imported table holds all of event:goal, visit:source/);
    expect(await skipped({ metrics: ['visitors'], filters: [['has_done', ['is', 'event:name', ['Signup']]]] }, 'unsupported_query', [[1]])).toMatch(
      UNSUPPORTED,
    );
    expect(await skipped({ metrics: ['visitors'], dimensions: ['visit:city'] }, 'unsupported_query', expect.any(Array))).toMatch(/visit:city/);
    const other = await createAccount(t.app);
    const none = await v2({ metrics: ['visitors'], date_range: ALL, include: { imports: true } }, other);
    expect(none.meta).toMatchObject({ imports_included: false, imports_skip_reason: 'no_imported_data' });
  });

  it('includes imports in a comparison whose earlier range holds them', async () => {
    const answer = await v2({
      metrics: ['visitors'],
      date_range: ['2024-01-03', '2024-01-09'],
      include: { imports: true, comparisons: { mode: 'previous_period' } },
    });
    expect(answer.meta.imports_included).toBe(true);
    // This week: native 4; the week before (27 Dec – 2 Jan): imported 17.
    expect(answer.results).toEqual([{ dimensions: [], metrics: [4], comparison: { dimensions: [], metrics: [17], change: [-76] } }]);
  });

  it('starts "all" at the first imported day', async () => {
    const answer = await v2({ metrics: ['visitors'], date_range: 'all', include: { imports: true } });
    expect(answer.query.date_range[0]).toBe('2024-01-01T00:00:00+00:00');
    expect(rows(answer)).toEqual([[21]]);
  });
});

describe('merged answers under random queries', () => {
  /**
   * Native events fall on 8–9 January and imported days on 1–2 January, so over both, every group
   * of a merged answer must be its native figure plus its imported-only figure (the answer for
   * 1–2 January), for any table, dimensions, filters and counts imported data can answer.
   */
  const VALUES = ['Google', 'Direct / None', 'Hacker News', '/', '/pricing', 'DE', 'FR', 'Signup', 'pageview', 'Desktop', 'Chrome', '(not set)'];
  const queries = fc.constantFrom(...IMPORTED_TABLES).chain((table) => {
    const dimensions = Object.keys(table.dimensions);
    // Visit-only dimensions (entry and exit pages) go with visit counts only (src/query/plan/resolve.ts).
    const counts = (['visitors', 'visits', 'pageviews', 'events'] as const).filter(
      (metric) => table.totals[metric] !== undefined && (metric === 'visitors' || metric === 'visits' || !dimensions.some(isSessionDimension)),
    );
    // Countries are matched as two-letter codes (any other `is` value is a 400).
    const leaf = fc
      .constantFrom(...(dimensions.length ? dimensions : ['visit:source']))
      .chain((dimension) =>
        fc.tuple(
          fc.constantFrom('is', 'is_not', 'contains'),
          fc.constant(dimension),
          fc.subarray(dimension === 'visit:country' ? ['DE', 'FR', 'US'] : VALUES, { minLength: 1, maxLength: 2 }),
        ),
      );
    return fc.record({
      metrics: fc.subarray(counts, { minLength: 1 }),
      dimensions: fc
        .tuple(fc.subarray(dimensions, { maxLength: Math.min(2, dimensions.length) }), fc.constantFrom([], ['time:day'], ['time:week'], ['time:month']))
        .map(([columns, time]) => [...columns, ...time]),
      filters: dimensions.length ? fc.array(leaf, { maxLength: 2 }) : fc.constant([]),
    });
  });

  it('is the native answer plus the imported-only answer, group by group', async () => {
    const byGroup = (body: { results: { dimensions: string[]; metrics: number[] }[] }) =>
      new Map(body.results.map((r) => [JSON.stringify(r.dimensions), r.metrics]));
    await fc.assert(
      fc.asyncProperty(queries, async (query) => {
        const merged = await v2({ ...query, date_range: ALL, include: { imports: true } });
        expect(merged.meta.imports_included, JSON.stringify(merged.meta)).toBe(true);
        const native = byGroup(await v2({ ...query, date_range: ALL }));
        const imported = byGroup(await v2({ ...query, date_range: ['2024-01-01', '2024-01-02'], include: { imports: true } }));
        const expected = new Map(
          [...native.keys(), ...imported.keys()].map((key) => {
            const sum = query.metrics.map((_, i) => (native.get(key)?.[i] ?? 0) + (imported.get(key)?.[i] ?? 0));
            return [key, sum];
          }),
        );
        expect(byGroup(merged)).toEqual(expected);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 40) },
    );
  }, 300_000);
});

describe('v1 with with_imported=true', () => {
  const custom = { period: 'custom', date: ALL.join(',') };

  it('aggregates, with the merge or without', async () => {
    const metrics = 'visitors,pageviews,bounce_rate,visit_duration';
    expect((await v1('aggregate', { ...custom, metrics })).results).toEqual({
      visitors: { value: 4 },
      pageviews: { value: 8 },
      bounce_rate: { value: 60 },
      visit_duration: { value: 312 },
    });
    const merged = await v1('aggregate', { ...custom, metrics, with_imported: 'true' });
    expect(merged).toEqual({ results: { visitors: { value: 21 }, pageviews: { value: 42 }, bounce_rate: { value: 52 }, visit_duration: { value: 91 } } });
  });

  it('lists every day of a timeseries with imported days filled in', async () => {
    const answer = await v1('timeseries', { ...custom, metrics: 'visitors', with_imported: 'true' });
    expect(answer.results.map((row: { date: string; visitors: number }) => [row.date, row.visitors])).toEqual([
      ['2024-01-01', 10],
      ['2024-01-02', 7],
      ['2024-01-03', 0],
      ['2024-01-04', 0],
      ['2024-01-05', 0],
      ['2024-01-06', 0],
      ['2024-01-07', 0],
      ['2024-01-08', 3],
      ['2024-01-09', 2],
    ]);
  });

  it('breaks down entry pages with the visits’ own pageviews', async () => {
    const answer = await v1('breakdown', { ...custom, property: 'visit:entry_page', metrics: 'visitors,visits,pageviews,bounce_rate', with_imported: 'true' });
    expect(answer.results).toEqual([
      // /: native 3 visits (6 pageviews, 1 bounce) + imported 10 entrances (20 pageviews, 3 bounces) → 4/13 = 31 %.
      { entry_page: '/', visitors: 12, visits: 13, pageviews: 26, bounce_rate: 31 },
      { entry_page: '/pricing', visitors: 5, visits: 6, pageviews: 7, bounce_rate: 83 },
      { entry_page: '/blog', visitors: 1, visits: 1, pageviews: 1, bounce_rate: 100 },
    ]);
  });

  it('gives each day of a timeseries its own conversion rate', async () => {
    const answer = await v1('timeseries', { ...custom, metrics: 'visitors,conversion_rate', filters: 'event:goal==Signup', with_imported: 'true' });
    expect(answer.results.map((row: { date: string; visitors: number; conversion_rate: number }) => [row.date, row.visitors, row.conversion_rate])).toEqual([
      ['2024-01-01', 3, 30],
      ['2024-01-02', 2, 28.57],
      ['2024-01-03', 0, 0],
      ['2024-01-04', 0, 0],
      ['2024-01-05', 0, 0],
      ['2024-01-06', 0, 0],
      ['2024-01-07', 0, 0],
      ['2024-01-08', 1, 33.33],
      ['2024-01-09', 0, 0],
    ]);
  });

  it('warns at the top level when imports cannot be included', async () => {
    const answer = await v1('aggregate', { ...custom, metrics: 'visitors,bounce_rate', filters: 'event:page==/', with_imported: 'true' });
    expect(answer.warning).toMatch(UNSUPPORTED);
    expect(answer.results).toEqual({ visitors: { value: 3 }, bounce_rate: { value: 33 } });
    const breakdown = await v1('breakdown', { ...custom, property: 'visit:city', with_imported: 'true' });
    expect(breakdown.warning).toMatch(/visit:city/);
  });
});

describe('deleted imports', () => {
  it('vanish from answers', async () => {
    const site = await createAccount(t.app);
    const done = await importPlausibleExport(t, site);
    expect((await v2({ metrics: ['visitors'], date_range: ALL, include: { imports: true } }, site)).results[0].metrics).toEqual([17]);
    const res = await fetch(`${t.url}/api/v1/sites/${site.domain}/imports/${done.id}`, { method: 'DELETE', headers: bearer(site.key) });
    expect(res.status).toBeLessThan(300);
    const after = await v2({ metrics: ['visitors'], date_range: ALL, include: { imports: true } }, site);
    expect(after.meta).toMatchObject({ imports_included: false, imports_skip_reason: 'no_imported_data' });
    expect(after.results[0].metrics).toEqual([0]);
  });
});
