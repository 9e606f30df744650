import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIMENSION_ALIASES, DIMENSIONS, TIME_DIMENSIONS } from '../../src/query/catalog.js';
import { METRICS } from '../../src/query/metrics.js';
import { type Account, bearer, type TestApp } from '../support/testApp.js';
import { importPlausibleExport } from './plausibleExport.js';
import { startSmallSite } from './smallSite.js';

// Hundreds of engine queries per property: a ceiling for a busy 2-core machine, not a speed claim.
const PROPERTY_TIMEOUT = 180_000;

/**
 * Random queries built mostly from the language's own words, so most of them get past the schema
 * and reach resolution, planning, compilation and ClickHouse: whatever the combination, the answer
 * is a result or a 400 whose error is a sentence, never a 5xx, and the service lives on.
 */
let t: TestApp;
let account: Account;

beforeAll(async () => {
  ({ t, account } = await startSmallSite({ goals: [{ pagePath: '/blog*', displayName: 'Blog' }], env: { LOG_LEVEL: process.env.FUZZ_LOG ?? 'silent' } }));
  // Imported days (1–2 January) inside many of the ranges below, so `include.imports` and
  // `with_imported` reach the merged statements too.
  await importPlausibleExport(t, account);
});
afterAll(() => t.close());

const oddString = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('', ' ', '*', '(', '\\', "'", '"', '%', '\u0000', 'ü', '/blog**', '[a-'));

/**
 * Query bodies. Wild ones mix odd strings into every field, so most are refused somewhere in
 * validation; well-formed ones use only the language's words and valid shapes, so most reach
 * ClickHouse (semantic refusals, such as a metric that cannot go with a dimension, remain).
 */
function queryBodies(wild: boolean) {
  const odd = wild ? 1 : 0;
  const pick = <T>(valid: fc.Arbitrary<T>, weird: fc.Arbitrary<T>) =>
    wild ? fc.oneof({ weight: 20, arbitrary: valid }, { weight: 1, arbitrary: weird }) : valid;
  const metric = fc.oneof(
    { weight: 20, arbitrary: fc.constantFrom<string>(...METRICS) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom('sum', 'avg', 'min', 'max', 'p50', 'p99')
        .chain((fn) => fc.constantFrom('seats', 'plan').map((p) => `${fn}(event:props:${p})`)),
    },
    { weight: odd, arbitrary: oddString },
  );
  const dimension = pick<string>(
    fc.constantFrom(...Object.keys(DIMENSIONS), ...Object.keys(DIMENSION_ALIASES), ...TIME_DIMENSIONS, 'event:goal', 'event:props:plan', 'event:props:seats'),
    fc.oneof(oddString, fc.constant('event:props:')),
  );
  const filterDimension = fc.constantFrom(
    'event:page',
    'event:name',
    'event:goal',
    'event:hostname',
    'visit:source',
    'visit:country',
    'visit:entry_page',
    'visit:exit_page',
    'visit:device',
    'event:props:plan',
    'visit:city',
  );
  const value = pick<string | number>(
    fc.constantFrom('Signup', 'Blog', '/', '/blog', 'DE', 'Google', '^/b.*$', 'pro', '/pri'),
    fc.oneof(oddString, fc.integer()),
  );
  const values = fc.array(value, { minLength: wild ? 0 : 1, maxLength: 3 });
  const operator = pick(fc.constantFrom('is', 'is_not', 'contains', 'contains_not', 'matches', 'matches_not'), oddString);
  const modifiers = fc.option(fc.record({ case_sensitive: pick<boolean | string>(fc.boolean(), oddString) }), { nil: undefined, freq: 4 });
  const leaf = fc
    .tuple(operator, wild ? dimension : filterDimension, values, modifiers)
    .map(([op, dim, vals, mods]) => (mods === undefined ? [op, dim, vals] : [op, dim, vals, mods]));
  const filter: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    node: fc.oneof(
      { weight: 6, arbitrary: leaf },
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom('and', 'or'), fc.array(tie('node'), { minLength: wild ? 0 : 1, maxLength: 3 })) },
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom('not', 'has_done', 'has_not_done'), tie('node')) },
    ),
  })).node;
  const dateRange = pick<string | string[]>(
    fc.oneof(
      fc.constantFrom('day', '24h', '7d', '28d', '30d', '91d', 'month', 'last_month', 'year', '12mo', 'all', 'realtime', '5m'),
      fc.constant<string[]>(['2024-01-08', '2024-01-09']),
      fc.constant<string[]>(['2024-01-08T10:00:00+01:00', '2024-01-09T23:00:00Z']),
    ),
    fc
      .tuple(fc.constantFrom('2024-13-01', '', '2024-01-09T10:00:00', '0d', 'week'), fc.constantFrom('2024-01-01', 'x'))
      .map(([a, b]) => (a.length < 5 ? a : [a, b])),
  );
  const orderBy = fc.array(fc.tuple(fc.oneof(metric, dimension), pick(fc.constantFrom('asc', 'desc'), fc.constant('up'))), { maxLength: 2 });
  const include = fc.record(
    {
      comparisons: fc.oneof(
        fc.record({ mode: pick(fc.constantFrom('previous_period', 'year_over_year'), fc.constantFrom('sideways', 'exact')) }),
        fc.record({ mode: fc.constant('custom'), date_range: fc.constant(['2024-01-01', '2024-01-02']) }),
      ),
      time_labels: fc.constantFrom(false, false, false, true),
      total_rows: fc.boolean(),
      imports: fc.boolean(),
    },
    { requiredKeys: [] },
  );
  return fc.record(
    {
      metrics: fc.uniqueArray(metric, { minLength: 1, maxLength: 3 }),
      dimensions: fc.uniqueArray(dimension, { maxLength: 2 }),
      filters: fc.array(filter, { maxLength: 2 }),
      date_range: dateRange,
      order_by: wild ? orderBy : fc.constant([]),
      include,
      pagination: fc.record(
        { limit: pick(fc.integer({ min: 1, max: 20 }), fc.constantFrom(0, 10_001)), offset: pick(fc.integer({ min: 0, max: 3 }), fc.constant(-1)) },
        { requiredKeys: [] },
      ),
      timezone: pick(fc.constantFrom('Europe/Berlin', 'UTC', 'Asia/Kolkata'), fc.constant('Mars/Olympus')),
    },
    { requiredKeys: ['metrics', 'date_range'] },
  );
}

async function expectSentenceOr200(res: Response) {
  const body = (await res.json()) as Record<string, unknown>;
  expect([200, 400], JSON.stringify(body)).toContain(res.status);
  if (res.status === 400) {
    expect(typeof body.error).toBe('string');
    expect((body.error as string).length).toBeGreaterThan(10);
  }
  return body;
}

describe('the query API under random input', () => {
  it.each([
    ['wild', true, 0],
    ['well-formed', false, 100],
  ])(
    'POST /api/v2/query answers %s queries with a result or a 400 sentence, never a 5xx',
    async (_kind, wild, mustAnswer) => {
      let answered = 0;
      let merged = 0;
      const refusals = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(queryBodies(wild), async (body) => {
          const res = await fetch(`${t.url}/api/v2/query`, {
            method: 'POST',
            headers: { ...bearer(account.key), 'content-type': 'application/json' },
            body: JSON.stringify({ site_id: account.domain, ...body }),
          });
          const answer = await expectSentenceOr200(res);
          if (res.status === 400) refusals.set(String(answer.code), (refusals.get(String(answer.code)) ?? 0) + 1);
          if (res.status === 200) {
            answered += 1;
            if ((answer.meta as Record<string, unknown>).imports_included === true) merged += 1;
            for (const row of answer.results as Array<{ metrics: unknown[]; dimensions: unknown[] }>) {
              expect(row.metrics).toHaveLength(body.metrics.length);
              expect(row.dimensions).toHaveLength((body.dimensions ?? []).length);
            }
          }
        }),
        // One query certain to merge the import (1–2 January lie in `month`) beside the random ones,
        // whose draws include one only most of the time: a run without one failed CI once.
        { numRuns: Number(process.env.FUZZ_RUNS ?? 400), examples: [[{ metrics: ['visitors'], date_range: 'month', include: { imports: true } }]] },
      );
      // Well-formed queries are meant to reach the engine, not only the validation.
      expect(answered, JSON.stringify([...refusals])).toBeGreaterThanOrEqual(mustAnswer);
      // …and some of them, imported data merged in (the site holds an import of 1–2 January).
      if (!wild) expect(merged).toBeGreaterThan(0);
      expect((await fetch(`${t.url}/api/health`)).status).toBe(200);
    },
    PROPERTY_TIMEOUT,
  );

  it.each([
    ['wild', true, 0],
    ['well-formed', false, 60],
  ])(
    'the v1 endpoints answer %s parameters with a result or a 400 sentence, never a 5xx',
    async (_kind, wild, mustAnswer) => {
      const pick = <T>(valid: fc.Arbitrary<T>, weird: fc.Arbitrary<T>) => (wild ? fc.oneof(valid, weird) : valid);
      const dimension = pick<string>(fc.constantFrom(...Object.keys(DIMENSIONS), 'event:goal', 'event:props:plan', 'visit:os', 'visit:channel'), oddString);
      const metric = pick<string>(
        fc.constantFrom('visitors', 'visits', 'pageviews', 'events', 'views_per_visit', 'bounce_rate', 'visit_duration'),
        fc.oneof(fc.constantFrom<string>(...METRICS), oddString),
      );
      const value = pick<string>(fc.constantFrom('Signup', '/blog*', 'DE', '/', 'Google', 'Chrome'), oddString);
      const v1Filter = fc
        .array(fc.tuple(dimension, pick(fc.constantFrom('==', '!=', '~', '!~'), fc.constantFrom('=', '')), fc.array(value, { minLength: 1, maxLength: 3 })), {
          maxLength: wild ? 3 : 2,
        })
        .map((clauses) => clauses.map(([dim, op, vals]) => `${dim}${op}${vals.join('|')}`).join(';'));
      const params = fc.record(
        {
          endpoint: fc.constantFrom('aggregate', 'timeseries', 'breakdown'),
          metrics: fc.uniqueArray(metric, { minLength: 1, maxLength: 3 }).map((m) => m.join(',')),
          period: pick(fc.constantFrom('day', '7d', '30d', 'month', '6mo', '12mo', 'year', 'all', 'custom'), fc.constantFrom('realtime', 'x')),
          date: pick(fc.constantFrom('2024-01-09', '2024-01-08,2024-01-09'), fc.constantFrom('2024-01-09,2024-01-08', 'yesterday', '')),
          filters: v1Filter,
          property: dimension,
          interval: pick(fc.constantFrom('day', 'month', 'date'), fc.constantFrom('week', 'hour', '', 'toString')),
          compare: pick(fc.constant('previous_period'), fc.constantFrom('year_over_year', 'nope')),
          limit: pick(fc.constantFrom('1', '10'), fc.constantFrom('0', '1001', 'abc', '-3')),
          page: pick(fc.constantFrom('1', '2'), fc.constantFrom('0', 'x')),
          with_imported: pick(fc.constantFrom('true', 'false'), fc.constant('maybe')),
          // Parameters given twice: a 400 naming the parameter, never a 500.
          repeated: pick(
            fc.constant([] as string[]),
            fc.uniqueArray(fc.constantFrom('site_id', 'metrics', 'period', 'date', 'filters', 'property', 'limit'), { maxLength: 2 }),
          ),
        },
        { requiredKeys: ['endpoint', 'metrics'] },
      );
      let answered = 0;
      await fc.assert(
        fc.asyncProperty(params, async ({ endpoint, repeated = [], ...rest }) => {
          const search = new URLSearchParams({ site_id: account.domain, ...rest });
          for (const name of repeated) search.append(name, search.get(name) ?? account.domain);
          const res = await fetch(`${t.url}/api/v1/stats/${endpoint}?${search}`, { headers: bearer(account.key) });
          await expectSentenceOr200(res);
          if (res.status === 200) answered += 1;
        }),
        { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
      );
      expect(answered).toBeGreaterThanOrEqual(mustAnswer);
      expect((await fetch(`${t.url}/api/health`)).status).toBe(200);
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'answers extreme dates, every interval and every time zone name the runtime knows with a result or a 400 sentence',
    async () => {
      const day = fc.oneof(
        fc.constantFrom('0001-01-01', '1969-12-31', '1970-01-01', '1970-01-08', '2106-02-06', '2106-02-07', '9999-12-31', '2024-02-30', '2024-01-08'),
        fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
      );
      const zone = fc.oneof(
        fc.constantFrom(...Intl.supportedValuesOf('timeZone')),
        fc.constantFrom(...Intl.supportedValuesOf('timeZone')).map((z) => z.toLowerCase()),
        fc.constantFrom('UTC', 'Etc/UTC', 'etc/utc', 'SystemV/AST4', 'Factory', 'GMT+5', 'Etc/GMT+5', 'US/Pacific-New', 'EST5EDT', ''),
      );
      const body = fc.record(
        {
          date_range: fc.oneof(fc.tuple(day, day), fc.constantFrom('day', 'all', '12mo')),
          timezone: zone,
          dimensions: fc.constantFrom([], ['time'], ['time:minute'], ['time:hour'], ['time:day'], ['time:week'], ['time:month']),
          labels: fc.boolean(),
          include: fc.constantFrom({}, { comparisons: { mode: 'previous_period' } }, { comparisons: { mode: 'year_over_year' } }),
        },
        { requiredKeys: ['date_range'] },
      );
      await fc.assert(
        fc.asyncProperty(body, async ({ labels, include, ...query }) => {
          const res = await fetch(`${t.url}/api/v2/query`, {
            method: 'POST',
            headers: { ...bearer(account.key), 'content-type': 'application/json' },
            body: JSON.stringify({
              site_id: account.domain,
              metrics: ['visitors'],
              include: { ...include, ...(labels ? { time_labels: true } : {}) },
              ...query,
            }),
          });
          await expectSentenceOr200(res);
        }),
        { numRuns: Number(process.env.FUZZ_RUNS ?? 200) },
      );
      expect((await fetch(`${t.url}/api/health`)).status).toBe(200);
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'answers filters nested to any depth with a result or a 400 sentence',
    async () => {
      const combinator = fc.constantFrom('not', 'and', 'or', 'has_done', 'has_not_done');
      const nested = fc
        .tuple(fc.array(combinator, { minLength: 1, maxLength: 600 }), fc.constantFrom('visit:country', 'event:page', 'event:goal'))
        .map(([ops, dimension]) => {
          let filter: unknown = ['is', dimension, [dimension === 'visit:country' ? 'DE' : dimension === 'event:goal' ? 'Signup' : '/']];
          for (const op of ops) filter = op === 'and' || op === 'or' ? [op, [filter]] : [op, filter];
          return filter;
        });
      await fc.assert(
        fc.asyncProperty(nested, fc.constantFrom('v2', 'v1'), async (filter, api) => {
          const res =
            api === 'v2'
              ? await fetch(`${t.url}/api/v2/query`, {
                  method: 'POST',
                  headers: { ...bearer(account.key), 'content-type': 'application/json' },
                  body: JSON.stringify({ site_id: account.domain, metrics: ['visitors'], date_range: 'day', filters: [filter] }),
                })
              : await fetch(
                  `${t.url}/api/v1/stats/aggregate?site_id=${account.domain}&metrics=visitors&filters=${encodeURIComponent(JSON.stringify([filter]))}`,
                  {
                    headers: bearer(account.key),
                  },
                );
          await expectSentenceOr200(res);
        }),
        { numRuns: Number(process.env.FUZZ_RUNS ?? 100) },
      );
    },
    PROPERTY_TIMEOUT,
  );
});
