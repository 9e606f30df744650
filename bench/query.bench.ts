/**
 * Query engine benchmark: `npm run bench:query`.
 *
 * Loads a synthetic site straight into the embedded store (10 million events, about a million
 * visitors, 90 days and today up to an hour ago, skewed pages, sources, countries and devices), then times
 * a dashboard's worth of POST /api/v2/query requests over HTTP, first over raw rows beside the
 * same questions as hand-written SQL on the same engine connection, then after rolling up the
 * closed days (src/rollups/rollups.ts) from roll-ups, and filtered by one page (raw). Prints
 * per-query p50 with the source used, the whole dashboard's time and the overhead ratio. Then
 * the same nine questions over every range the date picker offers (presets, custom dates, ranges
 * ending today), each against 91d in the same runs. Journeys (POST /api/v2/journeys) are timed
 * beside the 91d dashboard. Then, for fairness, times another team's simple
 * aggregate and the event route idle and while this team runs the costliest queries accepted.
 * Scale with BENCH_EVENTS (default 10,000,000).
 */
import { createApiKey } from '../src/stores/meta/apiKeys.js';
import { createSite } from '../src/stores/meta/sites.js';
import { createUserWithTeam } from '../src/stores/meta/users.js';
import { startOfDay, toLocal } from '../src/time/localTime.js';
import { loadSyntheticSite } from './syntheticSite.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const { app, url, site, key, now, close } = await loadSyntheticSite('query');

// ---------------------------------------------------------------------------------------------
// The dashboard: what the engine is asked over HTTP, and the same question in hand-written SQL.
const range = '91d';
const tz = 'Europe/Berlin';
const localMidnight = (daysAgo: number) => {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(now - daysAgo * 86_400_000),
  );
  return `toDateTime('${parts} 00:00:00', '${tz}')`;
};
// 91d: 91 days before today up to the end of yesterday, in the site's time zone; the comparison is the 91 days before.
const first = localMidnight(91);
const last = `${localMidnight(0)} - 1`;
const previousFirst = localMidnight(182);
const previousLast = `${first} - 1`;
const events = (from = first, to = last) =>
  `FROM events WHERE site_id = ${site.id} AND timestamp >= ${from} AND timestamp <= ${to} AND classification = '' AND name != 'engagement'`;
const sessions = (from = first, to = last) =>
  `FROM sessions WHERE site_id = ${site.id} AND start >= ${from} - 604800 AND timestamp >= ${from} AND start <= ${to} AND classification = ''`;
const topVisitors = (column: string, label = column) =>
  `SELECT ${label} AS value, uniq(user_id) AS visitors ${sessions()} GROUP BY value ORDER BY visitors DESC, value LIMIT 10`;
const aggregate = (from: string, to: string) =>
  `SELECT * FROM (SELECT uniq(user_id) AS visitors, uniq(session_id) AS visits, countIf(name = 'pageview') AS pageviews ${events(from, to)}) AS e
   CROSS JOIN (SELECT round(sum(sign * pageviews) / sum(sign), 2) AS views_per_visit, round(sum(is_bounce * sign) / sum(sign) * 100) AS bounce_rate,
                      round(sum(duration * sign) / sum(sign)) AS visit_duration ${sessions(from, to)}) AS s`;

interface DashboardQuery {
  name: string;
  body: Record<string, unknown>;
  sql: string[];
}

const DASHBOARD: DashboardQuery[] = [
  {
    name: 'aggregate + comparison',
    body: {
      metrics: ['visitors', 'visits', 'pageviews', 'views_per_visit', 'bounce_rate', 'visit_duration'],
      include: { comparisons: { mode: 'previous_period' } },
    },
    sql: [aggregate(first, last), aggregate(previousFirst, previousLast)],
  },
  {
    name: 'timeseries (day)',
    body: { metrics: ['visitors', 'pageviews'], dimensions: ['time:day'] },
    sql: [
      `SELECT toString(toDate(timestamp, '${tz}')) AS day, uniq(user_id) AS visitors, countIf(name = 'pageview') AS pageviews ${events()} GROUP BY day ORDER BY day`,
    ],
  },
  {
    name: 'sources',
    body: { metrics: ['visitors'], dimensions: ['visit:source'] },
    sql: [topVisitors('referrer_source', "if(referrer_source = '', 'Direct / None', referrer_source)")],
  },
  {
    name: 'pages',
    body: { metrics: ['visitors', 'pageviews'], dimensions: ['event:page'] },
    sql: [
      `SELECT pathname AS page, uniq(user_id) AS visitors, countIf(name = 'pageview') AS pageviews ${events()} GROUP BY page ORDER BY visitors DESC, page LIMIT 10`,
    ],
  },
  {
    name: 'entry pages',
    body: { metrics: ['visitors', 'visits'], dimensions: ['visit:entry_page'] },
    sql: [`SELECT entry_page, uniq(user_id) AS visitors, sum(sign) AS visits ${sessions()} GROUP BY entry_page ORDER BY visitors DESC, entry_page LIMIT 10`],
  },
  { name: 'countries', body: { metrics: ['visitors'], dimensions: ['visit:country'] }, sql: [topVisitors('toString(country_code)')] },
  { name: 'devices', body: { metrics: ['visitors'], dimensions: ['visit:device'] }, sql: [topVisitors('device')] },
  { name: 'browsers', body: { metrics: ['visitors'], dimensions: ['visit:browser'] }, sql: [topVisitors('browser')] },
  {
    name: 'goals',
    body: { metrics: ['visitors', 'events', 'conversion_rate'], dimensions: ['event:goal'] },
    sql: [
      `SELECT goal, visitors, events, round(visitors / total * 100, 2) AS conversion_rate FROM (
         SELECT arrayJoin(arrayFilter(g -> g != '', [if(name = 'Signup', 'Signup', ''), if(name = 'pageview' AND pathname = '/pricing', 'Visit /pricing', '')])) AS goal,
                uniq(user_id) AS visitors, count() AS events ${events()} AND (name = 'Signup' OR (name = 'pageview' AND pathname = '/pricing'))
         GROUP BY goal) AS g
       CROSS JOIN (SELECT uniq(user_id) AS total ${events()}) AS t ORDER BY visitors DESC, goal LIMIT 10`,
    ],
  },
];

/** One dashboard query over HTTP; returns the sources its answer came from, or the refusal's status. */
async function viaHttp(query: DashboardQuery, dateRange: string | string[] = range): Promise<string> {
  const res = await fetch(`${url}/api/v2/query`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ site_id: site.domain, date_range: dateRange, pagination: { limit: 10 }, ...query.body }),
  });
  // A refusal (503: more memory than one query may use) is reported, not fatal.
  if (res.status === 503) return `${res.status} ${((await res.json()) as { code: string }).code}`;
  if (res.status !== 200) throw new Error(`${query.name}: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { meta: { sources: string[] } };
  return body.meta.sources.join('+');
}

async function viaSql(query: DashboardQuery): Promise<void> {
  for (const sql of query.sql) {
    await (await app.events.query.query({ query: `${sql} SETTINGS max_execution_time = 30, join_use_nulls = 1`, format: 'JSONEachRow' })).json();
  }
}

async function time(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

// Phase 1, before any roll-up: the engine over raw rows against hand-written SQL, alternating run
// by run so contention from other work on the machine falls on both alike (after one warm-up).
for (const query of DASHBOARD) {
  await viaHttp(query);
  await viaSql(query);
}
const rawTimes = new Map<string, number[]>(DASHBOARD.map((q) => [q.name, []]));
const sqlTimes = new Map<string, number[]>(DASHBOARD.map((q) => [q.name, []]));
/** Raw answers the engine refused (the status and code), shown instead of a time. */
const rawRefused = new Map<string, string>();
for (let run = 0; run < RUNS; run++) {
  for (const query of DASHBOARD) {
    const start = performance.now();
    const outcome = await viaHttp(query);
    rawTimes.get(query.name)!.push(performance.now() - start);
    if (outcome.startsWith('503')) rawRefused.set(query.name, outcome);
    sqlTimes.get(query.name)!.push(await time(() => viaSql(query)));
  }
}

// Roll up the closed days (every day of the data set but today), as the background job does.
const rollStart = performance.now();
const rolled = await app.rollups.runOnce([{ id: site.id, timezone: tz, rawEventsFrom: null }], now);
const rollSeconds = (performance.now() - rollStart) / 1000;

// Phase 2: the same questions answered from roll-ups; then the dashboard filtered by one page,
// which no roll-up answers (pages are not kept with sources, countries…), so it reads raw rows.
const sources = new Map<string, string>();
for (const query of DASHBOARD) sources.set(query.name, await viaHttp(query));
// As the dashboard asks under a page filter: views per visit is refused there (it counts every page of a visit).
const FILTERED: DashboardQuery[] = DASHBOARD.map((query) => {
  const metrics = (query.body.metrics as string[]).filter((metric) => metric !== 'views_per_visit');
  return { ...query, body: { ...query.body, metrics, filters: [['is', 'event:page', ['/pricing']]] } };
});
const filteredSources = new Set<string>();
for (const query of FILTERED) filteredSources.add(await viaHttp(query));
const rollupTimes = new Map<string, number[]>(DASHBOARD.map((q) => [q.name, []]));
const filteredTimes: number[] = [];
for (let run = 0; run < RUNS; run++) {
  for (const query of DASHBOARD) rollupTimes.get(query.name)!.push(await time(() => viaHttp(query)));
  let filtered = 0;
  for (const query of FILTERED) filtered += await time(() => viaHttp(query));
  filteredTimes.push(filtered);
}

const pad = (text: string, width: number) => text.padEnd(width);
const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(12);
console.log(`Rolled up ${rolled.days} days in ${rollSeconds.toFixed(1)} s.\n`);
console.log(
  `${pad(`query (p50 of ${RUNS} runs)`, 28)}${'source'.padStart(12)}${'engine'.padStart(12)}${'raw only'.padStart(12)}${'hand SQL'.padStart(12)}${'raw/SQL'.padStart(9)}`,
);
const p50 = (times: Map<string, number[]>) => DASHBOARD.map((q) => median(times.get(q.name)!));
for (const [i, query] of DASHBOARD.entries()) {
  const [engine, raw, sql] = [p50(rollupTimes)[i]!, p50(rawTimes)[i]!, p50(sqlTimes)[i]!];
  const refused = rawRefused.get(query.name);
  const rawText = refused ? refused.padStart(24) : `${ms(raw)}${ms(sql)}`;
  console.log(`${pad(query.name, 28)}${sources.get(query.name)!.padStart(12)}${ms(engine)}${rawText}${(raw / sql).toFixed(2).padStart(9)}`);
}
const [dashboard, rawDashboard, sqlDashboard] = [sum(p50(rollupTimes)), sum(p50(rawTimes)), sum(p50(sqlTimes))];
if (rawRefused.size > 0) console.log(`(raw only: ${rawRefused.size} of the queries were refused, so the raw dashboard's total leaves them out)`);
console.log(
  `${pad('whole dashboard (sequential)', 28)}${''.padStart(12)}${ms(dashboard)}${ms(rawDashboard)}${ms(sqlDashboard)}${(rawDashboard / sqlDashboard).toFixed(2).padStart(9)}`,
);
console.log(`${pad('filtered by one page', 28)}${[...filteredSources].join(',').padStart(12)}${ms(median(filteredTimes))}`);
console.log(
  `\nWhole dashboard ${(dashboard / 1000).toFixed(2)} s from roll-ups against ${(rawDashboard / 1000).toFixed(2)} s raw (${(rawDashboard / dashboard).toFixed(1)}× faster; goal < 0.5 s at 10 M events, < 1 s at 100 M);` +
    ` filtered by one page ${(median(filteredTimes) / 1000).toFixed(2)} s (goal < 1.5 s); engine over hand-written SQL on raw rows ${(rawDashboard / sqlDashboard).toFixed(2)}× (goal ≤ 1.15×).`,
);

// ---------------------------------------------------------------------------------------------
// Journeys (docs/explore.md), always read raw: 28 and 91 days, with 0, 1 and 3 steps, forward and
// backward, each against the 91d dashboard just measured.
const JOURNEY_STEPS: [string, Record<string, string>[]][] = [
  ['0 steps', []],
  ['1 step', [{ page: '/pricing' }]],
  ['3 steps', [{ page: '/docs/0' }, { page: '/docs/**' }, { page: '/pricing' }]],
];
async function journeys(dateRange: string, steps: Record<string, string>[], direction: string): Promise<string> {
  const res = await fetch(`${url}/api/v2/journeys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ site_id: site.domain, date_range: dateRange, steps, direction }),
  });
  if (res.status !== 200) return `${res.status} ${((await res.json()) as { code: string }).code}`;
  const body = (await res.json()) as { meta: { sample_rate: number }; next: unknown[] };
  return `rate ${body.meta.sample_rate}, ${body.next.length} next`;
}
console.log(
  `\nJourneys (p50 of ${RUNS} runs; the 91d dashboard above: ${(dashboard / 1000).toFixed(2)} s from roll-ups, ${(rawDashboard / 1000).toFixed(2)} s raw):`,
);
for (const journeyRange of ['28d', '91d']) {
  for (const [label, steps] of JOURNEY_STEPS) {
    for (const direction of ['forward', 'backward']) {
      const outcome = await journeys(journeyRange, steps, direction);
      const times: number[] = [];
      for (let run = 0; run < RUNS; run++) times.push(await time(() => journeys(journeyRange, steps, direction)));
      console.log(`${pad(`${journeyRange} ${label} ${direction}`, 28)}${ms(median(times))}  ${outcome}  goal < 1 s at 10 M events, < 2 s at 100 M`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Every range the date picker offers: the same nine questions over each, from roll-ups,
// against 91d (a preset read from its window) measured in the same runs, range by range within a
// run so the machine's noise falls on all alike.
const localDay = (daysAgo: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(now - daysAgo * 86_400_000));
// The picker's `yesterday` and `30d` are asked as their days (web/src/pages/dashboard/periods.ts);
// `day` and `24h` are read raw (not whole days), today's rows whole. Realtime is left out: the
// synthetic site's traffic ends before the last half hour, so it would time an empty read.
const RANGES: [string, string | string[]][] = [
  ['91d', '91d'],
  ['28d', '28d'],
  ['7d', '7d'],
  ['day (today)', 'day'],
  ['24h', '24h'],
  ['yesterday', [localDay(1), localDay(1)]],
  ['month', 'month'],
  ['last_month', 'last_month'],
  ['year', 'year'],
  ['12mo', '12mo'],
  ['all', 'all'],
  ['30d (custom 30 days)', [localDay(30), localDay(1)]],
  ['custom 60 days', [localDay(60), localDay(1)]],
  ['custom 85 days', [localDay(85), localDay(1)]],
  ['custom 60 days to today', [localDay(59), localDay(0)]],
  ['custom 40 days, 30 ago', [localDay(70), localDay(31)]],
];
const RANGE_RUNS = Number(process.env.BENCH_RANGE_RUNS ?? 3);
/**
 * The nine queries over each range, range by range within each run: per range, each run's times one
 * after another, and the time until all nine answered when sent at once, as the dashboard sends them
 * (each panel asks for itself, web/src/pages/dashboard/panels/usePanelRows.ts).
 */
async function timeRanges(ranges: [string, string | string[]][]) {
  const times = new Map<string, number[][]>(ranges.map(([name]) => [name, []]));
  const atOnce = new Map<string, number[]>(ranges.map(([name]) => [name, []]));
  const sourcesOf = new Map<string, Set<string>>(ranges.map(([name]) => [name, new Set()]));
  for (const [name, dateRange] of ranges) for (const query of DASHBOARD) sourcesOf.get(name)!.add(await viaHttp(query, dateRange));
  for (let run = 0; run < RANGE_RUNS; run++) {
    for (const [name, dateRange] of ranges) {
      const each: number[] = [];
      for (const query of DASHBOARD) each.push(await time(() => viaHttp(query, dateRange)));
      times.get(name)!.push(each);
      atOnce.get(name)!.push(await time(() => Promise.all(DASHBOARD.map((query) => viaHttp(query, dateRange)))));
    }
  }
  return { times, atOnce, sourcesOf };
}
/** Prints each range's total, its ratio against `baseline` and its slowest query (every query with BENCH_RANGE_DETAIL). */
function printRanges(
  ranges: [string, string | string[]][],
  { times, atOnce, sourcesOf }: Awaited<ReturnType<typeof timeRanges>>,
  /** What each range's total is divided by: one figure for every range, or each range's own. */
  baseline: number | ((range: string) => number),
  ratioHeading: string,
) {
  console.log(
    `${pad('range', 26)}${'sources'.padStart(16)}${'dashboard'.padStart(12)}${ratioHeading.padStart(8)}${'at once'.padStart(12)}  slowest query (p50)`,
  );
  for (const [name] of ranges) {
    const runs = times.get(name)!;
    const total = median(runs.map(sum));
    const perQuery = DASHBOARD.map((query, i) => [query.name, median(runs.map((each) => each[i]!))] as const);
    const [slowName, slowTime] = perQuery.reduce((a, b) => (b[1] > a[1] ? b : a));
    const sourceText = [...sourcesOf.get(name)!].join(',');
    const ratio = total / (typeof baseline === 'number' ? baseline : baseline(name));
    const together = median(atOnce.get(name)!);
    console.log(`${pad(name, 26)}${sourceText.padStart(16)}${ms(total)}${ratio.toFixed(2).padStart(8)}${ms(together)}  ${slowName} ${slowTime.toFixed(0)} ms`);
  }
  if (process.env.BENCH_RANGE_DETAIL) {
    for (const [name] of ranges) {
      const runs = times.get(name)!;
      console.log(`  ${name}: ${DASHBOARD.map((query, i) => `${query.name} ${median(runs.map((each) => each[i]!)).toFixed(0)}`).join(', ')}`);
    }
  }
}
const everyRange = await timeRanges(RANGES);
const baseline = median(everyRange.times.get('91d')!.map(sum));
console.log(
  `\nEvery range, the nine queries from roll-ups one after another (p50 of ${RANGE_RUNS} runs; ratio against 91d in the same runs), and all nine sent at once as the dashboard sends them (until the last answer):`,
);
printRanges(RANGES, everyRange, baseline, '/ 91d');

// In the two hours after the site's midnight yesterday is not rolled up yet (src/rollups/rollSite.ts
// ROLLUP_GRACE_MS), so the presets read it raw. The store is put in that state (yesterday's roll-ups
// dropped as a late row would), and the job run as at 23:30, which merges the windows ending the day
// before (as the job did before windows were seen from today), then as at 00:30, which merges each
// preset's rolled-up days (src/stores/clickhouse/rollupWindows.ts windowsEnding). BENCH_MIDNIGHT=0
// skips it (three merges of every window, a long wait at 100 M events).
if (process.env.BENCH_MIDNIGHT !== '0') {
  const siteJob = [{ id: site.id, timezone: tz, rawEventsFrom: null }];
  const midnight = startOfDay(toLocal(now, tz), tz);
  // `day` and `24h` are read raw whatever the hour: only the presets read from windows.
  const presets = RANGES.filter(([, dateRange]) => typeof dateRange === 'string' && dateRange !== 'day' && dateRange !== '24h');
  app.rollups.noteWrite(site.id, midnight - 3_600_000);
  await app.rollups.runOnce(siteJob, midnight - 30 * 60_000);
  const before = await timeRanges(presets);
  await app.rollups.runOnce(siteJob, midnight + 30 * 60_000);
  const after = await timeRanges(presets);
  console.log(`\nAt 00:30, yesterday not rolled up yet (p50 of ${RANGE_RUNS} runs). Windows ending the day before yesterday (the job before):`);
  printRanges(presets, before, baseline, '/ 91d');
  console.log("Each preset's rolled-up days merged ahead, yesterday read raw beside them (ratio: against the row above):");
  printRanges(presets, after, (name) => median(before.times.get(name)!.map(sum)), '/ 23:30');
  // Back to the usual state for what follows.
  await app.rollups.runOnce(siteJob, now);
}

// BENCH_FAIRNESS=0 stops here (while measuring ranges alone).
if (process.env.BENCH_FAIRNESS === '0') {
  await close();
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------
// Fairness: while one team runs the costliest queries the API accepts, another team's
// simple aggregate and the event route should answer about as fast as when the engine is idle.
// A new address and domain each run: a reused store (BENCH_STORE) holds the last run's.
const other = await createUserWithTeam(app.meta.db, { email: `bench-other-${now}@example.com`, name: 'Other' }, now);
const otherSite = await createSite(app.meta.db, { teamId: other.teamId, domain: `other-${now}.example.com`, timezone: 'UTC' }, now);
const otherKey = (await createApiKey(app.meta.db, { teamId: other.teamId, userId: other.userId, name: 'bench' }, now)).key;
const ask = async (bearer: string, body: Record<string, unknown>) => {
  const res = await fetch(`${url}/api/v2/query`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
};
const simpleAggregate = () => ask(otherKey, { site_id: otherSite.domain, date_range: '7d', metrics: ['visitors', 'pageviews'] });
let eventNumber = 0;
const sendEvent = async () => {
  eventNumber += 1;
  const res = await fetch(`${url}/api/event`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140.0 Safari/537.36' },
    body: JSON.stringify({ name: 'pageview', domain: otherSite.domain, url: `https://other.example.com/p/${eventNumber}` }),
  });
  await res.arrayBuffer();
};
const FAIR_SAMPLES = 20;
async function sample(): Promise<{ aggregate: number[]; event: number[] }> {
  const aggregate: number[] = [];
  const event: number[] = [];
  for (let i = 0; i < FAIR_SAMPLES; i++) {
    aggregate.push(await time(async () => void (await simpleAggregate())));
    event.push(await time(sendEvent));
  }
  return { aggregate, event };
}
const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1]!;
await simpleAggregate();
const idle = await sample();
// The costliest accepted shape: a union of regexes at the size limit (src/query/request/regexCost.ts)
// over every page of the 91 days, grouped by page, as many at once as the team may queue.
let loaded = true;
const costly = async () => {
  const statuses: number[] = [];
  while (loaded) {
    statuses.push(
      await ask(key, {
        site_id: site.domain,
        date_range: range,
        metrics: ['visitors', 'pageviews', 'bounce_rate'],
        dimensions: ['event:page'],
        filters: [['matches', 'event:page', ['b.{590}9', 'c.{590}8', 'd.{590}7']]],
      }),
    );
  }
  return statuses;
};
const heavy = Array.from({ length: 6 }, costly);
await new Promise((resolve) => setTimeout(resolve, 500));
const busy = await sample();
loaded = false;
const heavyStatuses = (await Promise.all(heavy)).flat();
console.log(`\nFairness: another team's costly queries running (${heavyStatuses.length} answered: ${[...new Set(heavyStatuses)].join(', ')})`);
console.log(`${pad(`(${FAIR_SAMPLES} samples each)`, 36)}${'idle p50'.padStart(11)}${'busy p50'.padStart(11)}${'busy p99'.padStart(11)}${'ratio'.padStart(8)}`);
for (const [name, before, during, goal] of [
  ['simple aggregate, other team', idle.aggregate, busy.aggregate, 'goal < 2 s'],
  ['POST /api/event', idle.event, busy.event, 'goal < 100 ms'],
] as const) {
  console.log(
    `${pad(name, 36)}${ms(median(before))}${ms(median(during))}${ms(p99(during))}${(median(during) / median(before)).toFixed(2).padStart(8)}  ${goal}`,
  );
}

await close();
