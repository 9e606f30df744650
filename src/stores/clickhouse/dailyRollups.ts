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
 * that began in an earlier week than it ended stays in its day rows.
 */

export type RollupFamily = 'events' | 'sessions';

export interface RollupTable {
  /** Without the `daily_` prefix: one of design.md's ten names. */
  name: string;
  family: RollupFamily;
  /** Raw columns kept as grouping keys (besides the day keys and classification). */
  keys: { column: string; type: string }[];
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

/**
 * Smallest first within a family: a query is answered by the first table holding every column it
 * groups or filters by (src/query/sql/rollupSource.ts).
 */
export const ROLLUP_TABLES: RollupTable[] = [EVENT_TOTALS, ...FIRST_ROLLUP_TABLES];

export const rollupTableName = (table: RollupTable) => `daily_${table.name}`;

/** The day keys of each family, with the raw column each local day is cut from. */
export const DAY_KEYS: Record<RollupFamily, { column: string; from: string }[]> = {
  events: [{ column: 'day', from: 'timestamp' }],
  sessions: [
    { column: 'last_day', from: 'timestamp' },
    { column: 'first_day', from: 'start' },
  ],
};

/** Every key column of a table in stored order: site, span (`days`: 1 or 7), day keys, classification, dimensions. */
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

/** The day a row is kept under: an event's day, a visit's last day. */
export const rowDay = (table: RollupTable) => DAY_KEYS[table.family][0]!.column;

/** Day rows a week row holds: those of its days, and of visits that began in the same week. */
export const SAME_WEEK: Record<RollupFamily, string> = { events: '1', sessions: 'toMonday(first_day) = toMonday(last_day)' };

/**
 * The week rows of the whole weeks from `monday` to `sunday` (SQL dates: src/time/localTime.ts
 * wholeWeeks), and the day rows they hold, which a range reading them leaves out.
 */
export function weekRows(table: RollupTable, monday: string, sunday: string): { rows: string; holds: string } {
  const day = rowDay(table);
  return {
    rows: `days = 7 AND ${day} >= ${monday} AND ${day} <= subtractDays(${sunday}, 6)`,
    holds: `${SAME_WEEK[table.family]} AND ${day} >= ${monday} AND ${day} <= ${sunday}`,
  };
}

/**
 * The whole weeks of a table (Monday to Sunday, all seven days rolled up already) merged from its
 * day rows; `where` picks the day rows (conditions on `site_id` and the row day between a Monday
 * and a Sunday).
 */
export function weekSelect(table: RollupTable, where: string): string {
  const aggregates = ROLLUP_AGGREGATES[table.family];
  const keys = table.keys.map((k) => k.column);
  // The day rows' columns are renamed inside, so no alias below shadows a column it reads.
  const inner = `SELECT site_id, toMonday(${rowDay(table)}) AS monday, classification, ${[...keys, ...aggregates.map((a) => `${a.name} AS day_${a.name}`)].join(', ')} FROM ${rollupTableName(table)} WHERE days = 1 AND ${SAME_WEEK[table.family]} AND ${where}`;
  const outer = [
    'site_id',
    '7 AS days',
    ...DAY_KEYS[table.family].map((d) => `monday AS ${d.column}`),
    'classification',
    ...keys,
    ...aggregates.map((a) => `${a.combine}(day_${a.name}) AS ${a.name}`),
  ];
  return `SELECT ${outer.join(', ')} FROM (${inner}) GROUP BY ${['site_id', 'monday', 'classification', ...keys].join(', ')}`;
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
