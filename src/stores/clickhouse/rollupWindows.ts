import { calendarPresetDays } from '../../time/calendarPresets.js';
import { addDays, dayNumber, earlierDay, formatDate, isoWeekday, type LocalDate, laterDay, parseIsoDate } from '../../time/localTime.js';
import {
  anyMet,
  blockRows,
  blocksWithin,
  DAY_KEYS,
  indexesMet,
  ROLLUP_AGGREGATES,
  ROLLUP_TABLES,
  type RollupFamily,
  type RollupTable,
  rollupTableName,
  VISITOR_BOUND,
  valueAt,
} from './dailyRollups.js';
import type { TableDef } from './ddl.js';

/**
 * Window roll-ups: each daily roll-up (dailyRollups.ts) merged once over the dashboard's preset
 * ranges, so that a 91-day report reads one row per group instead of merging thirteen weekly
 * visitor sets (and, grouped as it asks, no set at all: see FULL and WHOLE below).
 *
 * Merging `uniq` visitor sets is what a long range costs from roll-ups, in proportion to the sets
 * merged, and the busiest groups hold up to 65,536 hashes every week (docs/rollups.md). A range
 * that ends yesterday — `7d`, `28d`, `91d`, and the previous period each is compared with — is
 * the same run of days for every query asked on a given day, so the roll-up job merges it once
 * per site and day and every such query reads the result.
 *
 * Each window is the latest computation of its length and slot (0: the days ending on the last day
 * rolled up, 1: the same length just before them). Rows of an older computation linger until the
 * table merges them away (ReplacingMergeTree on `computed`), so a query reads only the rows of the
 * computation the job published (`computed`, kept in memory by src/rollups/rollups.ts): never a
 * half-written or superseded window.
 */

/**
 * The lengths merged: the dashboard's presets that end yesterday (src/query/plan/dateRange.ts),
 * and the date picker's "Last 30 days", which it asks as its days (web/src/pages/dashboard/periods.ts):
 * read as a custom range, it merged a Monday's window with day rows at 2.7 times `28d`'s time.
 */
export const WINDOW_DAYS: readonly number[] = [7, 28, 30, 91];

/** The lengths merged before 30 days was: a coverage row that names no lengths holds these (src/rollups/coverageBook.ts). */
export const FIRST_WINDOW_DAYS: readonly number[] = [7, 28, 91];

/**
 * The date picker's other presets, merged ahead too so that picking one reads one row per group
 * (docs/rollups.md): `month` and `year` up to the last day rolled up (today is read raw beside
 * them), `last_month` and `12mo` whole, and `all` from the open start below. Each is known by its
 * slot; its `days` is 0, as its length varies.
 */
export const PRESET_WINDOW_SLOTS = { month: 2, last_month: 3, year: 4, '12mo': 5, all: 6 } as const;

/**
 * Windows from each of the last thirteen weeks' Mondays up to the last day rolled up, so that a
 * custom range ending yesterday or today is one of them, or one and the week's last days before it
 * (dailyRollups.ts EDGE_DAYS): two rows a group where the weeks and runs before it took up to five,
 * and one row without a visitor set when the range begins on a Monday: reading the sets back is
 * what such a range costs (docs/benchmarks.md). The window from the Monday `k` weeks before this week's has slot
 * MONDAY_SLOTS + `k` and `days` 0; thirteen weeks reach back as far as `91d` does.
 */
export const MONDAY_WEEKS = 13;
const MONDAY_SLOTS = 10;

/**
 * Which windows a computation holds: those of which WINDOW_DAYS lengths, the presets', and how
 * many of the latest Mondays' (a coverage row written before a kind existed names only the others).
 */
export interface WindowKinds {
  lengths: readonly number[];
  presets: boolean;
  mondays: number;
}

/**
 * The windows merged for a site whose first rolled-up day is `first`, seen from `today`: every
 * preset, and the Mondays' from the week holding `first` on. A window from an earlier Monday would
 * hold the same rows as that one, so a young site merges only the few its days reach.
 */
export function windowKinds(today: LocalDate, first: LocalDate): WindowKinds {
  const weeks = Math.floor((dayNumber(today) - isoWeekday(today) - (dayNumber(first) - isoWeekday(first))) / 7);
  return { lengths: WINDOW_DAYS, presets: true, mondays: Math.max(0, Math.min(MONDAY_WEEKS, weeks)) };
}

/** How many Mondays' windows a computation holds: the one furthest back is the last merged (windowsEnding). */
export const mondaysHeld = (windows: readonly WindowRange[]) => Math.max(0, ...windows.filter(isMondayWindow).map((w) => w.slot - MONDAY_SLOTS));

/** The WINDOW_DAYS lengths a computation holds, in WINDOW_DAYS' order. */
export const lengthsHeld = (windows: readonly WindowRange[]) => WINDOW_DAYS.filter((days) => windows.some((w) => w.days === days));

/** Whether a window is one of the presets' (PRESET_WINDOW_SLOTS) or from a Monday (MONDAY_WEEKS). */
export const isPresetWindow = (range: WindowRange) => range.days === 0 && range.slot < MONDAY_SLOTS;
export const isMondayWindow = (range: WindowRange) => range.days === 0 && range.slot > MONDAY_SLOTS;

/** The first day of the `all` window: before any stored day, so it holds every day up to its last. */
export const OPEN_START = '1970-01-01';

/** The days a window merges, from `first` to `last` (`YYYY-MM-DD`), and how it is known: its length or preset, and its slot. */
export interface WindowRange {
  /** Its length for the windows of WINDOW_DAYS; 0 for a preset's (PRESET_WINDOW_SLOTS). */
  days: number;
  /** For WINDOW_DAYS, 0: ending on the last day rolled up, 1: the same length just before; otherwise its preset's slot. */
  slot: number;
  first: string;
  last: string;
}

/** A window published for queries: its rows are those of computation `computed`. */
export interface RollupWindow extends WindowRange {
  table: string;
  computed: number;
}

/**
 * The windows kept for a site whose roll-ups reach `through`, seen from `today` (the day after it
 * once yesterday is rolled up); `kinds` says which beyond WINDOW_DAYS (a coverage row written
 * before some existed names only the others: src/rollups/coverageBook.ts). Each is a preset's days
 * up to `through`: in the two hours after midnight yesterday is not rolled up yet (the job's grace,
 * src/rollups/rollSite.ts), so `7d`'s window is its first six days and queries read yesterday raw
 * beside it, as `month` reads today. A preset that has no rolled-up day yet (`month` on the 1st)
 * has none, and one holding the same days as another is left to it.
 */
export function windowsEnding(through: LocalDate, kinds: WindowKinds, today: LocalDate): WindowRange[] {
  const upToThrough = (range: WindowRange) => ({ ...range, last: formatDate(earlierDay(parseIsoDate(range.last)!, through)) });
  const lengths = kinds.lengths.flatMap((days) =>
    [0, 1].map((slot) => {
      const last = addDays(today, -1 - slot * days);
      return upToThrough({ days, slot, first: formatDate(addDays(last, 1 - days)), last: formatDate(last) });
    }),
  );
  const calendar = (['month', 'last_month', 'year', '12mo'] as const).map((preset) => {
    const { first, last } = calendarPresetDays(preset, today);
    return upToThrough({ days: 0, slot: PRESET_WINDOW_SLOTS[preset], first: formatDate(first), last: formatDate(last) });
  });
  const all = { days: 0, slot: PRESET_WINDOW_SLOTS.all, first: OPEN_START, last: formatDate(through) };
  const thisMonday = addDays(today, 1 - isoWeekday(today));
  const mondays = Array.from({ length: kinds.mondays }, (_, i) => ({
    days: 0,
    slot: MONDAY_SLOTS + i + 1,
    first: formatDate(addDays(thisMonday, -7 * (i + 1))),
    last: formatDate(through),
  }));
  const ranges = [...lengths, ...(kinds.presets ? [...calendar, all] : []), ...mondays];
  // In January the year so far is the month so far, and on a Monday the week before is `7d`: merged once, as the first.
  const distinct = ranges.filter((range, i) => !ranges.slice(0, i).some((o) => o.first === range.first && o.last === range.last));
  return distinct.filter((range) => range.first <= range.last);
}

/** The day a site's windows were seen from (windowsEnding's `today`): the day after the last day of its slot-0 ranges. */
export const windowsSeenFrom = (windows: readonly WindowRange[]): LocalDate | undefined => {
  const current = windows.find((w) => w.slot === 0 && w.days > 0);
  return current && addDays(parseIsoDate(current.first)!, current.days);
};

/** A window's length in days (the open `all` window's counted from OPEN_START). */
export const windowLength = (range: WindowRange) => dayNumber(parseIsoDate(range.last)!) - dayNumber(parseIsoDate(range.first)!) + 1;

export const windowTableName = (table: RollupTable) => `window_${table.name}`;

/**
 * The day rows a window holds: the events of its days; the visits active in them (last active on
 * or after the first, begun by the last: src/query/sql/tables.ts sessionsBase), which are active in
 * any range holding the window too. So a range that is exactly a window's days is its rows alone.
 */
export const WINDOW_HOLDS: Record<RollupFamily, (first: string, last: string) => string> = {
  events: (first, last) => `day >= ${first} AND day <= ${last}`,
  sessions: (first, last) => `last_day >= ${first} AND first_day <= ${last}`,
};

/**
 * What a window row is grouped by: FULL rows keep every key of the daily table; the others are
 * the full rows merged again by one key column (named) or by none (WHOLE), the other keys left
 * empty. A report by one column over exactly a window then reads one row per group and takes its
 * visitors from the row's own count, without reading a visitor set (src/query/rollupReads/windowChoice.ts).
 */
export const FULL = '';
export const WHOLE = '*';

const windowKeys = (table: RollupTable) => ['site_id', 'days', 'slot', 'grouping', 'classification', ...table.keys.map((k) => k.column)];

/** Every column of a window table in stored order: a daily table's, with `slot`, `grouping` and `computed`. */
export const windowColumns = (table: RollupTable) => [
  'site_id',
  'days',
  'slot',
  'grouping',
  ...DAY_KEYS[table.family].map((d) => d.column),
  'classification',
  ...table.keys.map((k) => k.column),
  ...ROLLUP_AGGREGATES[table.family].map((a) => a.name),
  'computed',
];

/** A merged row's aggregates: inside, each merged from the rows' (as `merged_<name>`); outside, those and the bound as the merged visitors' own count. */
function mergedAggregates(table: RollupTable): { inner: string[]; outer: string[] } {
  const aggregates = ROLLUP_AGGREGATES[table.family];
  return {
    inner: aggregates.filter((a) => a !== VISITOR_BOUND).map((a) => `${a.combine}(${a.name}) AS merged_${a.name}`),
    outer: aggregates.map((a) =>
      a === VISITOR_BOUND ? `CAST(finalizeAggregation(merged_visitors) AS ${a.type}) AS ${a.name}` : `merged_${a.name} AS ${a.name}`,
    ),
  };
}

/**
 * A window's rows as a merge reads them: the condition picking them from a daily table (`rows`),
 * and every parameter it and the window's own columns name, suffixed with its `index`.
 */
export interface WindowRead {
  index: number;
  rows: string;
  params: Record<string, string | number>;
}

/**
 * How window `index` is read from a daily table, as a range is (src/query/rollupReads/sideSql.ts
 * rangeRows): its whole weeks as the longest runs stored and a partial week at either end as the
 * week's first or last days (dailyRollups.ts blocksWithin; `runsFrom` as in the coverage), its other
 * days as day rows: thirteen weeks are a few runs, not thirteen week rows.
 * Reading starts on `from`, the site's first rolled-up day, when the window starts before it (the
 * open `all`): no row is older.
 */
export function windowRead(table: RollupTable, range: WindowRange, index: number, from: LocalDate, runsFrom: LocalDate): WindowRead {
  const params: Record<string, string | number> = { [`days_${index}`]: range.days, [`slot_${index}`]: range.slot, [`first_${index}`]: range.first };
  const date = (day: LocalDate) => {
    const name = `day_${index}_${Object.keys(params).length}`;
    params[name] = formatDate(day);
    return `{${name}:Date}`;
  };
  const first = laterDay(parseIsoDate(range.first)!, from);
  const last = parseIsoDate(range.last)!;
  const days = `days = 1 AND ${WINDOW_HOLDS[table.family](date(first), date(last))}`;
  const blocks = dayNumber(first) <= dayNumber(last) ? blocksWithin(first, last, runsFrom) : [];
  if (blocks.length === 0) return { index, rows: days, params };
  const held = blockRows(table, blocks, date);
  return { index, rows: `(${held.rows}) OR (${days} AND NOT (${held.holds}))`, params };
}

/**
 * Merging a busy site's window at once can take more memory than a statement may use: at 100 M
 * events, the 91-day pages window holds about 4,000 groups whose visitor and visit sets take over
 * a gigabyte (docs/rollups.md). So each merge is cut into slices by a hash of the keys it groups
 * by (`slices`, `slice`; 1 and 0 merge everything at once), as many as its estimated sets need
 * to fit the bytes the job allows one statement (src/rollups/rollups.ts).
 *
 * The estimate counts the hashes a group's merged sets can hold: its summed visitor bounds, up to
 * the most a `uniq` set keeps (ClickHouse's UniquesHashSet keeps 2^16), at 16 bytes each (a
 * 4-byte cell in a table filled a quarter to a half) for each set a row holds.
 */
const SET_HASHES = 65_536;
const BYTES_PER_HASH = 16;

/** How many slices a merge whose groups' sets hold `hashes` (from windowSizesSql or regroupedWindowSizeSql) is cut into. */
export function sliceCount(table: RollupTable, hashes: number, sliceBytes: number): number {
  const sets = ROLLUP_AGGREGATES[table.family].filter((a) => a.combine === 'uniqMergeState').length;
  return Math.max(1, Math.ceil((hashes * BYTES_PER_HASH * sets) / sliceBytes));
}

const inSlice = (columns: readonly string[]) => `sipHash64(${columns.join(', ')}) % {slices:UInt32} = {slice:UInt32}`;
const capped = (rows: string) => `SELECT sum(least(bound, ${SET_HASHES})) AS hashes FROM (${rows})`;

/**
 * The hashes each window's full rows would hold (`window_read`: its read's index, `hashes`), from the daily rows
 * windowInsert merges. Parameters: `site`, and each read's.
 */
export function windowSizesSql(table: RollupTable, reads: readonly WindowRead[]): string {
  const keys = ['classification', ...table.keys.map((k) => k.column)];
  return reads
    .map((read) => {
      const groups = `SELECT sum(visitor_bound) AS bound FROM ${rollupTableName(table)} WHERE site_id = {site:UInt64} AND (${read.rows}) GROUP BY ${keys.join(', ')}`;
      return `SELECT ${read.index} AS window_read, hashes FROM (${capped(groups)})`;
    })
    .join(' UNION ALL ');
}

/**
 * Merges one slice of windows from the table's stored rows, each as `reads` says, all in one
 * statement. Parameters: `site`, `computed`, `slices`, `slice` and each read's. Each row's visitor
 * bound is its own merged count, as a day row's is: a group's summed bounds then stay at least its
 * visitors, and close to them.
 *
 * The table is read once, and each row goes to every window holding it (`window_read`, the read's index):
 * a `UNION ALL` of one read per window would plan and read the table as many times, which for a
 * small site's few rows is most of the round's cost (docs/benchmarks.md).
 */
export function windowInsert(table: RollupTable, reads: readonly WindowRead[]): string {
  const keys = ['classification', ...table.keys.map((k) => k.column)];
  const { inner: merged, outer: aggregates } = mergedAggregates(table);
  const each = (column: string, type: string) =>
    valueAt(
      reads.map((read) => `{${column}_${read.index}:${type}}`),
      'window_read',
    );
  const windows = indexesMet(reads.map((read) => read.rows));
  // The rows' columns are renamed inside, so no alias below shadows a column it reads.
  const inner = `SELECT window_read, ${[...keys, ...merged].join(', ')} FROM ${rollupTableName(table)} ARRAY JOIN ${windows} AS window_read
    WHERE site_id = {site:UInt64} AND ${inSlice(keys)} AND (${anyMet(reads.map((read) => read.rows))}) GROUP BY window_read, ${keys.join(', ')}`;
  const outer = [
    '{site:UInt64} AS site_id',
    `${each('days', 'UInt8')} AS days`,
    `${each('slot', 'UInt8')} AS slot`,
    `'${FULL}' AS grouping`,
    ...DAY_KEYS[table.family].map((d) => `${each('first', 'Date')} AS ${d.column}`),
    ...keys,
    ...aggregates,
    '{computed:UInt64} AS computed',
  ];
  return `INSERT INTO ${windowTableName(table)} (${windowColumns(table).join(', ')}) SELECT ${outer.join(', ')} FROM (${inner})`;
}

/**
 * Whether every window of a table, and then its regrouped rows, fits one statement each: a site
 * whose day rows' visitor bounds sum to `bound` holds at most that many hashes in any window's full
 * rows, and in each of their regroupings. Most sites are that small; each statement saved is one
 * less pass of the job over the table (docs/rollups.md, "Windows").
 */
export function windowsFitOneStatement(table: RollupTable, bound: number, windows: number, sliceBytes: number): boolean {
  return fitsOneStatement(table, bound * windows * (1 + table.keys.length), sliceBytes);
}

/** Whether a merge whose sets hold `hashes` needs no more than one statement (sliceCount). */
export const fitsOneStatement = (table: RollupTable, hashes: number, sliceBytes: number) => sliceCount(table, hashes, sliceBytes) === 1;

/** Each table's summed visitor bounds of a site's day rows (`site`): at least the hashes any of its windows holds. */
export const SITE_BOUNDS_SQL = ROLLUP_TABLES.map(
  (table) => `SELECT '${table.name}' AS table, sum(visitor_bound) AS bound FROM ${rollupTableName(table)} WHERE site_id = {site:UInt64} AND days = 1`,
).join(' UNION ALL ');

/** The columns the full rows of every window are merged again by: each key column alone, and none (WHOLE). */
const regroupings = (table: RollupTable) => [null, ...table.keys.map((k) => k.column)];
/** What every regrouping keeps apart: each window (its length and slot) and each classification. */
const KEPT_BY_EVERY_REGROUPING = ['days', 'slot', 'classification'];

/**
 * The hashes the rows regroupedWindowInsert writes would hold, summed over every regrouping (one
 * statement merges them all). Parameters: `site`, `computed`.
 */
export function regroupedWindowSizeSql(table: RollupTable): string {
  const sets = regroupings(table).map((column) => `(${[...KEPT_BY_EVERY_REGROUPING, ...(column ? [column] : [])].join(', ')})`);
  return capped(
    `SELECT sum(visitor_bound) AS bound FROM ${windowTableName(table)} WHERE site_id = {site:UInt64} AND computed = {computed:UInt64} AND grouping = '${FULL}' GROUP BY GROUPING SETS (${sets.join(', ')})`,
  );
}

/**
 * One slice of the full rows of computation `computed` merged again by each key column alone and
 * by none, in one statement; the other keys take their empty defaults. Parameters: `site`,
 * `computed`, `slices`, `slice` (the rows by none are merged in slice 0). The full rows are read
 * once, each row going to every regrouping (`regrouped`) with the keys it is not grouped by
 * emptied, as windowInsert reads the day rows once.
 */
export function regroupedWindowInsert(table: RollupTable): string {
  const { inner: merged, outer: aggregates } = mergedAggregates(table);
  const kept = ['days', 'slot', ...DAY_KEYS[table.family].map((d) => d.column), 'classification'];
  const keys = table.keys.map((k) => `if(regrouped = '${k.column}', ${k.column}, defaultValueOfTypeName('${k.type}')) AS regrouped_${k.column}`);
  // A row goes to the regroupings of this slice only, and is read at all only when it goes to one:
  // a busy site's window merged in slices reads each row's visitor sets in the slices that need them.
  const names = regroupings(table).map((column) => `'${column ?? WHOLE}'`);
  const keySlices = table.keys.map((k) => [k.column, inSlice([k.column])] as const);
  const wholeSlice = '{slice:UInt32} = 0';
  const here = keySlices.length > 0 ? `multiIf(${keySlices.map(([column, slice]) => `g = '${column}', ${slice}`).join(', ')}, ${wholeSlice})` : wholeSlice;
  const regroupedHere = `arrayFilter(g -> ${here}, [${names.join(', ')}])`;
  const needed = [wholeSlice, ...keySlices.map(([, slice]) => slice)].join(' OR ');
  const by = [...kept, 'regrouped', ...table.keys.map((k) => `regrouped_${k.column}`)];
  const inner = `SELECT ${[...kept, 'regrouped', ...keys, ...merged].join(', ')} FROM ${windowTableName(table)} ARRAY JOIN ${regroupedHere} AS regrouped
    WHERE site_id = {site:UInt64} AND computed = {computed:UInt64} AND grouping = '${FULL}' AND (${needed}) GROUP BY ${by.join(', ')}`;
  const outer = [
    '{site:UInt64} AS site_id',
    'days',
    'slot',
    'regrouped AS grouping',
    ...kept.slice(2),
    ...table.keys.map((k) => `regrouped_${k.column} AS ${k.column}`),
    ...aggregates,
    '{computed:UInt64} AS computed',
  ];
  return `INSERT INTO ${windowTableName(table)} (${windowColumns(table).join(', ')}) SELECT ${outer.join(', ')} FROM (${inner})`;
}

/**
 * A published window's rows meeting `rows` in a daily table's columns, `days` set to 0 so that a range reading
 * them beside day and week rows (src/query/rollupReads/sideSql.ts) tells them apart; with the rows of
 * a day so far (daySoFar.ts) in the same read when `daySoFar` names its slot and computation.
 */
export function windowRowsSql(
  table: RollupTable,
  columns: readonly string[],
  site: string,
  window: { days: string; slot: string; computed: string; rows: string; daySoFar?: { slot: string; computed: string } },
): string {
  const own = `days = ${window.days} AND slot = ${window.slot} AND computed = ${window.computed}`;
  const { daySoFar } = window;
  const which = daySoFar ? `((${own}) OR (days = 0 AND slot = ${daySoFar.slot} AND computed = ${daySoFar.computed}))` : own;
  const stored = `SELECT ${columns.join(', ')} FROM ${windowTableName(table)} WHERE site_id = ${site} AND ${which} AND ${window.rows}`;
  // Marked outside the statement that filters on the stored `days`: an alias would shadow it there.
  return `SELECT ${columns.map((column) => (column === 'days' ? 'toUInt8(0) AS days' : column)).join(', ')} FROM (${stored})`;
}

/** The newest computation stored in any window table, so a restarted job numbers its next one above it. */
export const LATEST_COMPUTATION_SQL = `SELECT max(computed) AS computed FROM (${ROLLUP_TABLES.map((table) => `SELECT max(computed) AS computed FROM ${windowTableName(table)}`).join(' UNION ALL ')})`;

/**
 * A background merge reads each part it merges in blocks of `merge_max_block_size` rows, 8,192 by
 * default; a window row holds sets of up to half a megabyte each, so merging a busy site's pages
 * windows took more than the embedded engine's 2 GiB and failed, again and again. Blocks of 16
 * rows from at most 16 parts keep a merge within a quarter gigabyte. Set by migration 7.
 */
export const WINDOW_MERGE_SETTINGS = 'merge_max_block_size = 16, max_parts_to_merge_at_once = 16';

export const windowRollupDef = (table: RollupTable): TableDef => ({
  name: windowTableName(table),
  columns: [
    'site_id UInt64',
    'days UInt8',
    'slot UInt8',
    'grouping LowCardinality(String)',
    ...DAY_KEYS[table.family].map((d) => `${d.column} Date`),
    'classification LowCardinality(String)',
    ...table.keys.map((k) => `${k.column} ${k.type}`),
    ...ROLLUP_AGGREGATES[table.family].map((a) => `${a.name} ${a.type}`),
    'computed UInt64',
  ],
  engine: 'ReplacingMergeTree',
  engineArgs: 'computed',
  orderBy: `(${windowKeys(table).join(', ')})`,
  shardingKey: 'site_id',
});

export const WINDOW_ROLLUPS: TableDef[] = ROLLUP_TABLES.map(windowRollupDef);
