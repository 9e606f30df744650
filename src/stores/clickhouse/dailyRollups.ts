import { addDays, dayNumber, type LocalDate } from '../../time/localTime.js';
import { type ColumnTable, EVENT_COLUMN_TABLE, SESSION_COLUMN_TABLE } from './columns.js';
import type { TableDef } from './ddl.js';

/**
 * The daily roll-ups of our own events (the ten names of design.md's list, and EVENT_TOTALS),
 * kept as aggregate states so that any run of days merges into exact answers: visitors over 90
 * days is the `uniqMerge` of 90 daily `uniqState`s, not a sum of daily counts. Imported data keeps the
 * reference's plain-count shape in the `rollup_*` tables (schema.ts); these are ours alone.
 *
 * Each table reads one raw table, and keeps that table's column names for its dimensions, so a
 * filter or grouping compiled for raw rows reads the same on a roll-up (src/query/sql/rollupSource.ts):
 * - `events` tables: one row group per site-local day of the event, engagement rows left out;
 * - `sessions` tables: one row group per local day the visit was last active (`last_day`) and the
 *   day it began (`first_day`), so "visits active in the range" (src/query/sql/tables.ts
 *   sessionsBase) is `last_day >= first AND first_day <= last`, exactly as on raw visits.
 *
 * Every table also holds each whole ISO week (`days` = 7, its day keys the week's Monday) merged
 * from its day rows, so a 91-day range merges 13 weekly states and a few daily ones instead of
 * 91: the cost of merging visitor sets is what bounds a long range (docs/rollups.md). A visit
 * that began in an earlier week than it ended stays in its day rows. Runs of two and four weeks
 * are kept the same way (SPAN_WEEKS).
 */

export type RollupFamily = 'events' | 'sessions';

export interface RollupTable {
  /** Without the `daily_` prefix: one of design.md's ten names. */
  name: string;
  family: RollupFamily;
  /** Raw columns kept as grouping keys (besides the day keys and classification). */
  keys: { column: string; type: string }[];
  /** The wider table whose day rows this one's are merged from, by fewer keys (NARROW_TABLES). */
  from?: RollupTable;
}

/** An aggregate column: its stored type, the state it is built from on raw rows, and how states combine. */
interface AggregateColumn {
  name: string;
  type: string;
  state: string;
  combine: 'uniqMergeState' | 'sum';
}

const UNIQ = 'AggregateFunction(uniq, UInt64)';
const COUNT = 'SimpleAggregateFunction(sum, UInt64)';
const SIGNED = 'SimpleAggregateFunction(sum, Int64)';

/**
 * Each row's own visitor count, summed when rows merge: never less than the visitors of the rows
 * it sums, so a breakdown can pick the groups that may lead before merging any visitor set
 * (src/query/plan/leadingGroups.ts). Added by migration 5, which filled it for the rows it found.
 */
export const VISITOR_BOUND: AggregateColumn = { name: 'visitor_bound', type: COUNT, state: `CAST(uniq(user_id) AS ${COUNT})`, combine: 'sum' };
export const VISITOR_BOUND_COLUMN = `${VISITOR_BOUND.name} ${VISITOR_BOUND.type}`;

/** What each family keeps per group; the query compiler's roll-up forms read these names. */
export const ROLLUP_AGGREGATES: Record<RollupFamily, AggregateColumn[]> = {
  events: [
    VISITOR_BOUND,
    { name: 'visitors', type: UNIQ, state: 'uniqState(user_id)', combine: 'uniqMergeState' },
    { name: 'visits', type: UNIQ, state: 'uniqState(session_id)', combine: 'uniqMergeState' },
    { name: 'pageviews', type: COUNT, state: `CAST(countIf(name = 'pageview') AS ${COUNT})`, combine: 'sum' },
    { name: 'events', type: COUNT, state: `CAST(count() AS ${COUNT})`, combine: 'sum' },
  ],
  sessions: [
    VISITOR_BOUND,
    { name: 'visitors', type: UNIQ, state: 'uniqState(user_id)', combine: 'uniqMergeState' },
    { name: 'visits', type: SIGNED, state: `CAST(sum(sign) AS ${SIGNED})`, combine: 'sum' },
    { name: 'bounces', type: SIGNED, state: `CAST(sum(sign * is_bounce) AS ${SIGNED})`, combine: 'sum' },
    { name: 'duration', type: SIGNED, state: `CAST(sum(sign * duration) AS ${SIGNED})`, combine: 'sum' },
    { name: 'pageviews', type: SIGNED, state: `CAST(sum(sign * pageviews) AS ${SIGNED})`, combine: 'sum' },
    { name: 'events', type: SIGNED, state: `CAST(sum(sign * events) AS ${SIGNED})`, combine: 'sum' },
  ],
};

const RAW_COLUMNS = { events: EVENT_COLUMN_TABLE, sessions: SESSION_COLUMN_TABLE };

/**
 * Grouping keys of a family's table, each in its raw column's type as created (columns.ts) without
 * the codec: roll-up rows are few, and the default compression serves them.
 */
function keys<F extends RollupFamily>(family: F, columns: Array<keyof (typeof RAW_COLUMNS)[F] & string>): RollupTable['keys'] {
  const raw: ColumnTable = RAW_COLUMNS[family];
  return columns.map((column) => ({ column, type: raw[column]!.type.replace(/ CODEC\(.*\)$/, '') }));
}

/** The tables migration 3 created (design.md's ten), as the released migrations name them. */
export const FIRST_ROLLUP_TABLES: RollupTable[] = [
  { name: 'custom_events', family: 'events', keys: keys('events', ['name']) },
  { name: 'pages', family: 'events', keys: keys('events', ['name', 'hostname', 'pathname']) },
  { name: 'visitors', family: 'sessions', keys: [] },
  { name: 'devices', family: 'sessions', keys: keys('sessions', ['device', 'screen_size']) },
  { name: 'browsers', family: 'sessions', keys: keys('sessions', ['browser', 'browser_version']) },
  { name: 'operating_systems', family: 'sessions', keys: keys('sessions', ['operating_system', 'operating_system_version']) },
  { name: 'locations', family: 'sessions', keys: keys('sessions', ['country_code', 'subdivision1_code', 'subdivision2_code', 'city']) },
  { name: 'entry_pages', family: 'sessions', keys: keys('sessions', ['entry_page', 'hostname']) },
  { name: 'exit_pages', family: 'sessions', keys: keys('sessions', ['exit_page', 'exit_page_hostname']) },
  {
    name: 'sources',
    family: 'sessions',
    keys: keys('sessions', ['channel', 'referrer_source', 'referrer', 'utm_medium', 'utm_source', 'utm_campaign', 'utm_content', 'utm_term', 'click_id_param']),
  },
];

/**
 * Every event of a day in one row (per classification), added by migration 12 and filled from
 * daily_custom_events: each row's visitor bound is then the day's own visitors, so a graph of
 * visitors by day reads one number a day instead of merging each event name's visitor set
 * (docs/benchmarks.md, "Where a range's time goes, and the graph's one row a day").
 */
export const EVENT_TOTALS: RollupTable = { name: 'event_totals', family: 'events', keys: [] };

const firstTable = (name: string) => FIRST_ROLLUP_TABLES.find((table) => table.name === name)!;

/**
 * One key of a wider table alone, added by migration 14 and filled from it: the dashboard's
 * countries, sources and browsers panels (and operating systems) then read one row per group for
 * each day, week and run, where the wider table keeps one per city, referrer and tag, or version,
 * each with a visitor set to merge (docs/benchmarks.md, "Tables of one key"). Their day rows are merged
 * from the wider table's (narrowedSelect), so the two never differ.
 */
export const NARROW_TABLES: RollupTable[] = [
  { name: 'countries', family: 'sessions', keys: keys('sessions', ['country_code']), from: firstTable('locations') },
  { name: 'source_names', family: 'sessions', keys: keys('sessions', ['referrer_source']), from: firstTable('sources') },
  { name: 'browser_names', family: 'sessions', keys: keys('sessions', ['browser']), from: firstTable('browsers') },
  { name: 'operating_system_names', family: 'sessions', keys: keys('sessions', ['operating_system']), from: firstTable('operating_systems') },
];

/**
 * Fewest keys first: a query is answered by the first table of its family holding every column it
 * groups or filters by (src/query/sql/rollupSource.ts). The sort keeps the order among equals.
 */
export const ROLLUP_TABLES: RollupTable[] = [EVENT_TOTALS, ...FIRST_ROLLUP_TABLES, ...NARROW_TABLES].sort((a, b) => a.keys.length - b.keys.length);

export const rollupTableName = (table: RollupTable) => `daily_${table.name}`;

/** The day keys of each family, with the raw column each local day is cut from. */
export const DAY_KEYS: Record<RollupFamily, { column: string; from: string }[]> = {
  events: [{ column: 'day', from: 'timestamp' }],
  sessions: [
    { column: 'last_day', from: 'timestamp' },
    { column: 'first_day', from: 'start' },
  ],
};

/** Every key column of a table in stored order: site, span (`days`: 1, or 7 × SPAN_WEEKS), day keys, classification, dimensions. */
export function keyColumns(table: RollupTable): string[] {
  return ['site_id', 'days', ...DAY_KEYS[table.family].map((d) => d.column), 'classification', ...table.keys.map((k) => k.column)];
}

/** Every column of a table in stored order. */
export const allColumns = (table: RollupTable) => [...keyColumns(table), ...ROLLUP_AGGREGATES[table.family].map((a) => a.name)];

/**
 * The grouped raw rows a table holds, as a SELECT over its raw table with `where` (raw column
 * conditions; `tz` the SQL of the site's time zone): what the roll-up job inserts for closed
 * days and what a query reads for the days not rolled up yet, so the two never differ.
 * `collapsed` reads visits with their cancelled states taken out (FINAL), as the job does for
 * closed days, whose visits no longer change.
 */
export function rollupSelect(table: RollupTable, where: string, tz: string, collapsed = false): string {
  const keys = [
    'site_id',
    '1 AS days',
    ...DAY_KEYS[table.family].map((d) => `toDate(${d.from}, ${tz}) AS ${d.column}`),
    'classification',
    ...table.keys.map((k) => k.column),
  ];
  const states = ROLLUP_AGGREGATES[table.family].map((a) => `${a.state} AS ${a.name}`);
  const source = table.family === 'events' ? 'events' : collapsed ? 'sessions FINAL' : 'sessions';
  const rows = table.family === 'events' ? `(${where}) AND name != 'engagement'` : where;
  return `SELECT ${[...keys, ...states].join(', ')} FROM ${source} WHERE ${rows} GROUP BY ${keyColumns(table).join(', ')}`;
}

/**
 * A narrow table's rows (NARROW_TABLES) merged from its wider table's rows meeting `where`, each
 * row's bound the merged set's own count.
 */
export function narrowedSelect(table: RollupTable, where: string): string {
  const aggregates = ROLLUP_AGGREGATES[table.family];
  const keys = ['site_id', 'days', ...DAY_KEYS[table.family].map((d) => d.column), 'classification', ...table.keys.map((k) => k.column)];
  // The wider rows' figures are renamed inside, so no alias below shadows a column it reads.
  const inner = `SELECT ${[...keys, ...aggregates.map((a) => `${a.name} AS wide_${a.name}`)].join(', ')} FROM ${rollupTableName(table.from!)} WHERE ${where}`;
  const merged = aggregates.map((a) =>
    a === VISITOR_BOUND ? `CAST(uniqMerge(wide_visitors) AS ${a.type}) AS ${a.name}` : `${a.combine}(wide_${a.name}) AS ${a.name}`,
  );
  return `SELECT ${[...keys, ...merged].join(', ')} FROM (${inner}) GROUP BY ${keys.join(', ')}`;
}

/** The day a row is kept under: an event's day, a visit's last day. */
export const rowDay = (table: RollupTable) => DAY_KEYS[table.family][0]!.column;

/**
 * The runs of whole weeks each table keeps merged besides its days (`days` = 7 × weeks, its day
 * keys the run's first Monday): ISO weeks, and runs of two and four weeks, each starting a
 * multiple of its length after ALIGNED_MONDAY. A range's whole weeks are read as the longest runs
 * that fit (spansWithin), so the 11 weeks of a custom 85 days merge about four sets per group
 * where they merged eleven: a busy group's set holds up to 65,536 hashes whatever its length, and
 * reading the sets back is what a long range costs (docs/benchmarks.md, "Runs of two and four
 * weeks"). Longer runs would save more, but merging one takes memory in proportion to its days,
 * as a window's does (src/stores/clickhouse/rollupWindows.ts), and the job merges them unsliced.
 */
export const SPAN_WEEKS = [1, 2, 4] as const;

/** The Monday runs of weeks are aligned to (as a day number): 1970-01-05, the first Monday a ClickHouse Date holds (ALL_RUNS). */
const ALIGNED_MONDAY = 4;

/** SQL: the first Monday of the run of `weeks` weeks holding a day (SQL). */
export function spanStart(weeks: number, day: string): string {
  const monday = `toMonday(${day})`;
  return weeks === 1 ? monday : `subtractDays(${monday}, modulo(intDiv(toUInt32(${monday}) - ${ALIGNED_MONDAY}, 7), ${weeks}) * 7)`;
}

/** Day rows a run's row holds: those of its days, and of visits that began in the same run. */
const sameSpan = (family: RollupFamily, weeks: number) => (family === 'events' ? '1' : `${spanStart(weeks, 'first_day')} = ${spanStart(weeks, 'last_day')}`);

/** A stored run of whole weeks: its length and first Monday. */
export interface WeekSpan {
  weeks: number;
  monday: LocalDate;
}

/** Whether a run of `weeks` weeks starts on a Monday. */
const startsSpan = (monday: LocalDate, weeks: number) => ((dayNumber(monday) - ALIGNED_MONDAY) / 7) % weeks === 0;

/**
 * The stored runs covering the whole weeks from `monday` to `sunday`, each the longest of `lengths`
 * that starts where the last ended and ends by `sunday` (at most two of each length but the longest);
 * runs of more than a week only from `runsFrom` on (COVERAGE_RUNS_COLUMN).
 */
export function spansWithin(monday: LocalDate, sunday: LocalDate, runsFrom: LocalDate, lengths: readonly number[] = SPAN_WEEKS): WeekSpan[] {
  const spans: WeekSpan[] = [];
  for (let at = monday; dayNumber(at) < dayNumber(sunday); ) {
    const left = (dayNumber(sunday) - dayNumber(at) + 1) / 7;
    const stored = dayNumber(at) >= dayNumber(runsFrom) ? lengths : [1];
    const weeks = Math.max(...stored.filter((w) => w <= left && startsSpan(at, w)));
    spans.push({ weeks, monday: at });
    at = addDays(at, 7 * weeks);
  }
  return spans;
}

/**
 * The runs of `weeks` weeks that end from `first` to `last`, whose days are all rolled up once
 * those are: the first one's Monday (of the run holding `first`) and the last one's Sunday; null
 * when none does.
 */
export function spansEnding(weeks: number, first: LocalDate, last: LocalDate): { monday: LocalDate; sunday: LocalDate } | null {
  const monday = addDays(first, -((dayNumber(first) - ALIGNED_MONDAY) % (7 * weeks)));
  const runs = Math.floor((dayNumber(last) - dayNumber(monday) + 1) / (7 * weeks));
  return runs < 1 ? null : { monday, sunday: addDays(monday, 7 * weeks * runs - 1) };
}

/**
 * The stored rows of `spans` (their Mondays as SQL through `date`), and the day rows they hold,
 * which a range reading them leaves out.
 */
export function spanRows(table: RollupTable, spans: readonly WeekSpan[], date: (day: LocalDate) => string): { rows: string; holds: string } {
  const day = rowDay(table);
  const mondays = (weeks: number) => spans.filter((s) => s.weeks === weeks).map((s) => date(s.monday));
  const rows = [...new Set(spans.map((s) => s.weeks))].map((weeks) => `(days = ${7 * weeks} AND ${day} IN (${mondays(weeks).join(', ')}))`);
  const end = (span: WeekSpan) => date(addDays(span.monday, 7 * span.weeks - 1));
  // An event is held by the run of its day; a visit by a run it began and ended in.
  const holds =
    table.family === 'events'
      ? `${day} >= ${date(spans[0]!.monday)} AND ${day} <= ${end(spans.at(-1)!)}`
      : spans.map((s) => `(first_day >= ${date(s.monday)} AND last_day <= ${end(s)})`).join(' OR ');
  return { rows: rows.join(' OR '), holds };
}

/**
 * The ISO weeks from `monday` to `sunday` (SQL dates: src/time/localTime.ts wholeWeeks), read as
 * week rows, and the day rows they hold: how a window is merged (src/stores/clickhouse/rollupWindows.ts).
 */
export function weekRows(table: RollupTable, monday: string, sunday: string): { rows: string; holds: string } {
  const day = rowDay(table);
  return {
    rows: `days = 7 AND ${day} >= ${monday} AND ${day} <= subtractDays(${sunday}, 6)`,
    holds: `${sameSpan(table.family, 1)} AND ${day} >= ${monday} AND ${day} <= ${sunday}`,
  };
}

/**
 * The whole runs of `weeks` weeks of a table (all their days rolled up already) merged from its
 * day rows; `where` picks the day rows (conditions on `site_id` and the row day between the first
 * run's Monday and the last one's Sunday).
 */
export function spanSelect(table: RollupTable, where: string, weeks: number): string {
  const aggregates = ROLLUP_AGGREGATES[table.family];
  const keys = table.keys.map((k) => k.column);
  // The day rows' columns are renamed inside, so no alias below shadows a column it reads.
  const inner = `SELECT site_id, ${spanStart(weeks, rowDay(table))} AS monday, classification, ${[...keys, ...aggregates.map((a) => `${a.name} AS day_${a.name}`)].join(', ')} FROM ${rollupTableName(table)} WHERE days = 1 AND ${sameSpan(table.family, weeks)} AND ${where}`;
  const outer = [
    'site_id',
    `${7 * weeks} AS days`,
    ...DAY_KEYS[table.family].map((d) => `monday AS ${d.column}`),
    'classification',
    ...keys,
    ...aggregates.map((a) => `${a.combine}(day_${a.name}) AS ${a.name}`),
  ];
  return `SELECT ${outer.join(', ')} FROM (${inner}) GROUP BY ${['site_id', 'monday', 'classification', ...keys].join(', ')}`;
}

/** A table's day rows from `from` (SQL) on, and the rows of every run of weeks holding it. */
export function rowsFrom(table: RollupTable, from: string): string {
  const day = rowDay(table);
  return `((days = 1 AND ${day} >= ${from})${SPAN_WEEKS.map((w) => ` OR (days = ${7 * w} AND ${day} >= ${spanStart(w, from)})`).join('')})`;
}

/** A daily table as migration 3 created the first ten (without the bound: VISITOR_BOUND_COLUMN). */
export const dailyRollupDef = (table: RollupTable): TableDef => ({
  name: rollupTableName(table),
  columns: [
    'site_id UInt64',
    'days UInt8',
    ...DAY_KEYS[table.family].map((d) => `${d.column} Date`),
    'classification LowCardinality(String)',
    ...table.keys.map((k) => `${k.column} ${k.type}`),
    // As released by migration 3; the visitor bound came with migration 5 (VISITOR_BOUND_COLUMN).
    ...ROLLUP_AGGREGATES[table.family].filter((a) => a !== VISITOR_BOUND).map((a) => `${a.name} ${a.type}`),
  ],
  engine: 'AggregatingMergeTree',
  partitionBy: `toYYYYMM(${DAY_KEYS[table.family][0]!.column})`,
  orderBy: `(${keyColumns(table).join(', ')})`,
  shardingKey: 'site_id',
});

export const DAILY_ROLLUPS: TableDef[] = ROLLUP_TABLES.map(dailyRollupDef);

/**
 * Granules of at most 64 KiB, set by migration 11. A roll-up row holds visitor sets of up to a
 * quarter megabyte, and ClickHouse reads a set column a granule at a time, every set in it
 * deserialised: with the default 10 MiB granules, reading one page's rows read its neighbours'
 * sets too. `month`'s three device rows took 26 ms from a granule of 70 window rows, 9 ms from
 * granules of one row each; docs/benchmarks.md ("Granules of 64 KiB") has the whole dashboard.
 */
export const ROLLUP_GRANULES = 'index_granularity_bytes = 65536';

/**
 * Added to the coverage by migration 8: the windows published with it (src/rollups/rollups.ts),
 * their computation (0: none), the day they end on and the tables that have them.
 */
export const COVERAGE_WINDOW_COLUMNS = ['windows_computed UInt64', 'windows_through Date', 'window_tables Array(String)'];

/**
 * Added to the coverage by migration 13: the first day from which every run of more than one week
 * (SPAN_WEEKS) starting on it or later is stored. The job stores every run once its last day is rolled up; a
 * site rolled up before it stored none, so its runs begin after the last day it had rolled up.
 */
export const COVERAGE_RUNS_COLUMN = 'runs_from Date DEFAULT addDays(through, 1)';

/** The runs_from of a site rolled up from its first day: every run is stored. */
export const ALL_RUNS = '1970-01-05';

/**
 * Per site, the last local day rolled up and the time zone the days were cut in. A newer row
 * (higher `version`) replaces an older one; a site with no row has nothing rolled up.
 */
export const ROLLUP_COVERAGE: TableDef = {
  name: 'rollup_coverage',
  columns: ['site_id UInt64', 'timezone String', 'through Date', 'version UInt64'],
  engine: 'ReplacingMergeTree',
  engineArgs: 'version',
  orderBy: 'site_id',
  shardingKey: 'site_id',
};
