import { addDays, dayNumber, earlierDay, isoWeekday, type LocalDate, laterDay } from '../../time/localTime.js';
import { type ColumnTable, EVENT_COLUMN_TABLE, SESSION_COLUMN_TABLE } from './columns.js';
import type { TableDef } from './ddl.js';

/**
 * The daily roll-ups of our own events (the ten names of design.md's list, and EVENT_TOTALS),
 * kept as aggregate states so that any stretch of days merges into exact answers: visitors over 90
 * days is the `uniqMerge` of 90 daily `uniqState`s, not a sum of daily counts. Imported data keeps the
 * reference's plain-count shape in the `rollup_*` tables (schema.ts); these are ours alone.
 *
 * Each table reads one raw table, and keeps that table's column names for its dimensions, so a
 * filter or grouping compiled for raw rows reads the same on a roll-up (src/query/rollupReads/):
 * - `events` tables: one row group per site-local day of the event, engagement rows left out;
 * - `sessions` tables: one row group per local day the visit was last active (`last_day`) and the
 *   day it began (`first_day`), so "visits active in the range" (src/query/sql/tables.ts
 *   sessionsBase) is `last_day >= first AND first_day <= last`, exactly as on raw visits.
 *
 * Every table also holds each whole ISO week (`days` = 7, its day keys the week's Monday) merged
 * from its day rows, so a 91-day range merges 13 weekly states and a few daily ones instead of
 * 91: the cost of merging visitor sets is what bounds a long range (docs/rollups.md). A visit
 * that began in an earlier week than it ended stays in its day rows. Runs of two to sixteen weeks
 * are kept the same way (RUN_WEEKS).
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
 * (src/query/rollupReads/leadingGroups.ts). Added by migration 5, which filled it for the rows it found.
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
 * visitors by day reads one number a day instead of merging each event name's visitor set, which
 * was most of the graph's time (docs/benchmarks.md).
 */
export const EVENT_TOTALS: RollupTable = { name: 'event_totals', family: 'events', keys: [] };

const firstTable = (name: string) => FIRST_ROLLUP_TABLES.find((table) => table.name === name)!;

/**
 * One key of a wider table alone, added by migration 14 and filled from it: the dashboard's
 * countries, sources and browsers panels (and operating systems) then read one row per group for
 * each day, week and run, where the wider table keeps one per city, referrer and tag, or version,
 * each with a visitor set to merge: on a busy site those sets are what the panels cost
 * (docs/benchmarks.md). Their day rows are merged from the wider table's (narrowedSelect), so
 * the two never differ.
 */
export const NARROW_TABLES: RollupTable[] = [
  { name: 'countries', family: 'sessions', keys: keys('sessions', ['country_code']), from: firstTable('locations') },
  { name: 'source_names', family: 'sessions', keys: keys('sessions', ['referrer_source']), from: firstTable('sources') },
  { name: 'browser_names', family: 'sessions', keys: keys('sessions', ['browser']), from: firstTable('browsers') },
  { name: 'operating_system_names', family: 'sessions', keys: keys('sessions', ['operating_system']), from: firstTable('operating_systems') },
];

/**
 * Fewest keys first: a query is answered by the first table of its family holding every column it
 * groups or filters by (src/query/rollupReads/sideTables.ts). The sort keeps the order among equals.
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

/** Every key column of a table in stored order: site, length (`days`: 1 for a day row, a block's days), day keys, classification, dimensions. */
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
 * closed days, whose visits no longer change. `columns` keeps only those of the table's columns
 * (the site's always), grouped by the keys among them: a query reading the pages of today's raw
 * rows by path alone groups them by path, not by day, event name and hostname too, which would
 * cut them finer than the answer needs (docs/benchmarks.md).
 * `prewhere` is read first, before any other column: a condition few rows meet that ClickHouse
 * would not put first itself.
 */
export function rollupSelect(
  table: RollupTable,
  where: string,
  tz: string,
  options: { collapsed?: boolean; columns?: readonly string[]; prewhere?: string } = {},
): string {
  const kept = (column: string) => column === 'site_id' || options.columns === undefined || options.columns.includes(column);
  // The keys computed from raw columns; the others are raw columns of the same name.
  const computed = new Map([['days', '1 AS days'], ...DAY_KEYS[table.family].map((d) => [d.column, `toDate(${d.from}, ${tz}) AS ${d.column}`] as const)]);
  const keys = keyColumns(table).filter(kept);
  const states = ROLLUP_AGGREGATES[table.family].filter((a) => kept(a.name)).map((a) => `${a.state} AS ${a.name}`);
  const source = table.family === 'events' ? 'events' : options.collapsed ? 'sessions FINAL' : 'sessions';
  const rows = table.family === 'events' ? `(${where}) AND name != 'engagement'` : where;
  const prewhere = options.prewhere === undefined ? '' : ` PREWHERE ${options.prewhere}`;
  return `SELECT ${[...keys.map((key) => computed.get(key) ?? key), ...states].join(', ')} FROM ${source}${prewhere} WHERE ${rows} GROUP BY ${keys.join(', ')}`;
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
 * keys the run's first Monday): ISO weeks, and runs of two to sixteen weeks, each starting a
 * multiple of its length after ALIGNED_MONDAY. A range's whole weeks are read as the longest runs
 * that fit (runsWithin), so the 11 weeks of a custom 85 days merge about four sets per group
 * where they merged eleven: a busy group's set holds up to 65,536 hashes whatever its length, and
 * reading the sets back is what a long range costs (docs/benchmarks.md). Each length is one more pass of the job over the day rows; longer runs than sixteen
 * weeks would serve only ranges the windows of the longer presets already serve.
 */
export const RUN_WEEKS = [1, 2, 4, 8, 16] as const;

/**
 * The lengths of a week's first days (Monday to the day) and last days (the day to Sunday) kept
 * merged as blocks (`days` = the length, day keys the first day), so a range's partial weeks at
 * either end are a row each instead of up to six day rows, each with its set (docs/benchmarks.md).
 * A block of one day is the day's row; of seven, the week's.
 */
export const EDGE_DAYS = [2, 3, 4, 5, 6] as const;

/** The Monday runs of weeks are aligned to (as a day number): 1970-01-05, the first Monday a ClickHouse Date holds (ALL_RUNS). */
const ALIGNED_MONDAY = 4;

/** SQL: the first Monday of the run of `weeks` weeks holding a day (SQL). */
export function runStart(weeks: number, day: string): string {
  const monday = `toMonday(${day})`;
  return weeks === 1 ? monday : `subtractDays(${monday}, modulo(intDiv(toUInt32(${monday}) - ${ALIGNED_MONDAY}, 7), ${weeks}) * 7)`;
}

/** A stored block of days: a run of whole weeks, or a week's first or last days. */
export interface Block {
  days: number;
  start: LocalDate;
}

/**
 * A kind of block the job stores: its length, the SQL of the first day of the block of this kind
 * that holds a day (SQL), and whether one ends on a day.
 */
export interface BlockKind {
  days: number;
  start: (day: string) => string;
  endsOn: (day: LocalDate) => boolean;
}

/** Whether a run of `weeks` weeks starts on a Monday. */
const startsRun = (monday: LocalDate, weeks: number) => ((dayNumber(monday) - ALIGNED_MONDAY) / 7) % weeks === 0;

/** Every kind of block stored: runs of weeks, then each week's first and last days. */
export const BLOCK_KINDS: BlockKind[] = [
  ...RUN_WEEKS.map((weeks) => ({
    days: 7 * weeks,
    start: (day: string) => runStart(weeks, day),
    endsOn: (day: LocalDate) => isoWeekday(day) === 7 && startsRun(addDays(day, 1 - 7 * weeks), weeks),
  })),
  ...EDGE_DAYS.flatMap((days) => [
    { days, start: (day: string) => `toMonday(${day})`, endsOn: (day: LocalDate) => isoWeekday(day) === days },
    { days, start: (day: string) => `addDays(toMonday(${day}), ${7 - days})`, endsOn: (day: LocalDate) => isoWeekday(day) === 7 },
  ]),
];

/**
 * The stored runs covering the whole weeks from `monday` to `sunday`, each the longest of `lengths`
 * that starts where the last ended and ends by `sunday` (at most two of each length but the longest);
 * runs of more than a week only from `runsFrom` on (COVERAGE_RUNS_COLUMN).
 */
export function runsWithin(monday: LocalDate, sunday: LocalDate, runsFrom: LocalDate, lengths: readonly number[] = RUN_WEEKS): Block[] {
  const runs: Block[] = [];
  for (let at = monday; dayNumber(at) < dayNumber(sunday); ) {
    const left = (dayNumber(sunday) - dayNumber(at) + 1) / 7;
    const stored = dayNumber(at) >= dayNumber(runsFrom) ? lengths : [1];
    const weeks = Math.max(...stored.filter((w) => w <= left && startsRun(at, w)));
    runs.push({ days: 7 * weeks, start: at });
    at = addDays(at, 7 * weeks);
  }
  return runs;
}

/**
 * The stored blocks a range of days from `first` to `last` is read from: its whole weeks as the
 * longest runs that fit (runsWithin), and a partial week at either end as the week's first or
 * last days (EDGE_DAYS) where it reaches the week's Monday or Sunday. Its other days (a lone day at
 * an end, days within one week) are read as day rows. Blocks beyond weeks only from `runsFrom` on.
 */
export function blocksWithin(first: LocalDate, last: LocalDate, runsFrom: LocalDate, lengths: readonly number[] = RUN_WEEKS): Block[] {
  const blocks: Block[] = [];
  let whole: [LocalDate, LocalDate] | null = null;
  for (let monday = addDays(first, 1 - isoWeekday(first)); dayNumber(monday) <= dayNumber(last); monday = addDays(monday, 7)) {
    const from = laterDay(first, monday);
    const to = earlierDay(last, addDays(monday, 6));
    const days = dayNumber(to) - dayNumber(from) + 1;
    if (days === 7) whole = [whole?.[0] ?? monday, to];
    else if (days > 1 && (isoWeekday(from) === 1 || isoWeekday(to) === 7) && dayNumber(from) >= dayNumber(runsFrom)) blocks.push({ days, start: from });
  }
  if (whole) blocks.push(...runsWithin(whole[0], whole[1], runsFrom, lengths));
  return blocks.sort((a, b) => dayNumber(a.start) - dayNumber(b.start));
}

/**
 * The blocks of a kind that end from `first` to `last`, whose days are all rolled up once those
 * are: the first one's first day and the last one's last day; null when none does.
 */
export function blocksEnding(kind: BlockKind, first: LocalDate, last: LocalDate): { from: LocalDate; to: LocalDate } | null {
  const ends: LocalDate[] = [];
  for (let day = first; dayNumber(day) <= dayNumber(last); day = addDays(day, 1)) if (kind.endsOn(day)) ends.push(day);
  return ends.length === 0 ? null : { from: addDays(ends[0]!, 1 - kind.days), to: ends.at(-1)! };
}

/** The last day of a block. */
const blockEnd = (block: Block) => addDays(block.start, block.days - 1);

/**
 * The stored rows of `blocks` (their first days as SQL through `date`), and the day rows they hold,
 * which a range reading them leaves out.
 */
export function blockRows(table: RollupTable, blocks: readonly Block[], date: (day: LocalDate) => string): { rows: string; holds: string } {
  const day = rowDay(table);
  const starts = (days: number) => blocks.filter((b) => b.days === days).map((b) => date(b.start));
  const rows = [...new Set(blocks.map((b) => b.days))].map((days) => `(days = ${days} AND ${day} IN (${starts(days).join(', ')}))`);
  // An event is held by the block of its day (touching blocks read as one stretch); a visit by a block it began and ended in.
  const stretches: [LocalDate, LocalDate][] = [];
  for (const block of blocks) {
    const previous = stretches.at(-1);
    if (previous && dayNumber(previous[1]) + 1 === dayNumber(block.start)) previous[1] = blockEnd(block);
    else stretches.push([block.start, blockEnd(block)]);
  }
  const holds =
    table.family === 'events'
      ? stretches.map(([from, to]) => `(${day} >= ${date(from)} AND ${day} <= ${date(to)})`).join(' OR ')
      : blocks.map((b) => `(first_day >= ${date(b.start)} AND last_day <= ${date(blockEnd(b))})`).join(' OR ');
  return { rows: rows.join(' OR '), holds };
}

/** Day rows the block of a kind holding their day holds: those of its days, and of visits that began in it. */
function heldBy(family: RollupFamily, kind: BlockKind): string {
  const [first, last] = family === 'events' ? ['day', 'day'] : ['first_day', 'last_day'];
  return `${first} >= ${kind.start(last)} AND ${last} <= addDays(${kind.start(last)}, ${kind.days - 1})`;
}

/**
 * For an `ARRAY JOIN` that sends each row of one read to every merge holding it (the blocks of
 * each kind here, the windows in rollupWindows.ts): whether a row meets any of the `conditions`,
 * the indexes of those it meets, and a value per index picked by the joined one.
 */
export const anyMet = (conditions: readonly string[]) => conditions.map((met) => `(${met})`).join(' OR ');
export const indexesMet = (conditions: readonly string[]) => `arrayFilter(i -> i >= 0, [${conditions.map((met, i) => `if((${met}), ${i}, -1)`).join(', ')}])`;
export const valueAt = (values: readonly (string | number)[], index: string) => `[${values.join(', ')}][${index} + 1]`;

/**
 * The whole blocks of some kinds of a table (all their days rolled up already) merged from its day
 * rows; each block's `where` picks its day rows (conditions on `site_id` and the row day between
 * the first block's first day and the last one's last). The day rows are read once, each going to
 * every kind whose block holds it (`block`, its index in `blocks`): one read a kind, as a `UNION
 * ALL`, would plan and read the table as many times, which for a small site's few rows is much of
 * the round's cost (docs/benchmarks.md).
 */
export function blocksSelect(table: RollupTable, blocks: readonly { kind: BlockKind; where: string }[]): string {
  const aggregates = ROLLUP_AGGREGATES[table.family];
  const keys = table.keys.map((k) => k.column);
  const holds = blocks.map(({ kind, where }) => `${heldBy(table.family, kind)} AND ${where}`);
  const starts = valueAt(
    blocks.map(({ kind }) => kind.start(rowDay(table))),
    'block',
  );
  const days = valueAt(
    blocks.map(({ kind }) => kind.days),
    'block',
  );
  // The day rows' columns are renamed inside, so no alias below shadows a column it reads.
  const inner = `SELECT site_id, block, ${starts} AS start, classification, ${[...keys, ...aggregates.map((a) => `${a.name} AS day_${a.name}`)].join(', ')}
    FROM ${rollupTableName(table)} ARRAY JOIN ${indexesMet(holds)} AS block WHERE days = 1 AND (${anyMet(holds)})`;
  const outer = [
    'site_id',
    `${days} AS days`,
    ...DAY_KEYS[table.family].map((d) => `start AS ${d.column}`),
    'classification',
    ...keys,
    ...aggregates.map((a) => `${a.combine}(day_${a.name}) AS ${a.name}`),
  ];
  return `SELECT ${outer.join(', ')} FROM (${inner}) GROUP BY ${['site_id', 'block', 'start', 'classification', ...keys].join(', ')}`;
}

/** A table's day rows from `from` (SQL) on, and the rows of every block holding one of those days. */
export function rowsFrom(table: RollupTable, from: string): string {
  const day = rowDay(table);
  const lengths = [1, ...new Set(BLOCK_KINDS.map((kind) => kind.days))];
  return `(${lengths.map((days) => `(days = ${days} AND ${day} >= ${days === 1 ? from : `subtractDays(${from}, ${days - 1})`})`).join(' OR ')})`;
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
 * sets too, and ranges reading a few rows of a window paid for all of it (docs/benchmarks.md).
 */
export const ROLLUP_GRANULES = 'index_granularity_bytes = 65536';

/**
 * Added to the coverage by migration 8: the windows published with it (src/rollups/rollups.ts),
 * their computation (0: none), the day they end on and the tables that have them.
 */
export const COVERAGE_WINDOW_COLUMNS = ['windows_computed UInt64', 'windows_through Date', 'window_tables Array(String)'];

/**
 * Added to the coverage by migration 13: the first day from which every block but days and weeks
 * (runs of more than one week, RUN_WEEKS; a week's first or last days, EDGE_DAYS) starting on it
 * or later is stored. The job stores every block once its last day is rolled up; a site rolled up
 * before a kind was added stored none of it, so its blocks begin after the last day it had rolled
 * up (migrations 13 and 15).
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
