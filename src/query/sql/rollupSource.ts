import { LRUCache } from 'lru-cache';
import {
  allColumns,
  blockRows,
  blocksWithin,
  EVENT_TOTALS,
  ROLLUP_TABLES,
  type RollupTable,
  rollupSelect,
  rollupTableName,
  rowDay,
  SPAN_WEEKS,
} from '../../stores/clickhouse/dailyRollups.js';
import type { DaySoFar } from '../../stores/clickhouse/daySoFar.js';
import type { Coverage } from '../../stores/clickhouse/rollupStore.js';
import { FULL, OPEN_START, type RollupWindow, WHOLE, WINDOW_HOLDS, windowLength, windowRowsSql } from '../../stores/clickhouse/rollupWindows.js';
import { earliestVisitStart } from '../../stores/clickhouse/schema.js';
import { addDays, dayNumber, formatDate, type LocalDate, parseIsoDate, toLocal } from '../../time/localTime.js';
import { dimensionKind } from '../catalog.js';
import { goalDimensionGoals, isScrollGoal, selectGoals } from '../goals.js';
import { ROLLUP_VISITORS } from '../metrics.js';
import type { CompileContext, FilterTree, GroupSet, Side } from '../model.js';
import { dayBucket, goalKey } from './dimensionSql.js';
import { filtersCondition } from './filters.js';
import { and, classificationCondition } from './tables.js';

/**
 * Whether a side of a compiled query (src/query/sql/compile.ts) can be read from a daily roll-up
 * (src/stores/clickhouse/dailyRollups.ts) instead of raw rows, and its SQL when it can.
 *
 * A roll-up answers a side when the range is whole local days of the zone the roll-ups were cut
 * in, every aggregate has a roll-up form, and every column it groups or filters by is one of the
 * table's keys. The days the roll-ups do not cover yet (today, yesterday within the grace) are
 * the same grouped states computed from raw rows and added with UNION ALL, so one range reads
 * both and the states merge as one.
 */

/** The columns a goal condition reads (src/query/goals.ts), scroll goals aside. */
export const GOAL_COLUMNS: readonly string[] = ['name', 'pathname'];

/** A session row's column for a dimension it carries under another name (compile.ts groups by these). */
export const SESSION_DIMENSION_SUBSTITUTES: Record<string, string> = { 'event:page': 'entry_page', 'event:hostname': 'hostname' };

/** The stored column of a dimension's expression (`toString(country_code)` reads `country_code`). */
const storedColumn = (expression: string) => /^toString\((\w+)\)$/.exec(expression)?.[1] ?? expression;

/** The roll-up table that can answer a side, or null when only raw rows can. */
export function rollupTableFor(side: Side, ctx: CompileContext, coverage: Coverage): RollupTable | null {
  const { q, range } = ctx;
  if (range.unit !== 'days' || ctx.sampleRate !== null || q.tz !== coverage.timezone || range.first > coverage.until) return null;
  if (side.perVisitMax || side.smeared || (side.table === 'events' && side.engagement)) return null;
  if ([...side.columns.values()].some((column) => column.rollup === null)) return null;
  const needed = new Set<string>();
  for (const extra of side.extra) {
    if (extra.columns === null) return null;
    extra.columns.forEach((column) => needed.add(column));
  }
  for (const index of side.dims) {
    const columns = side.exitPageAsPath && q.dimensions[index] === 'visit:exit_page' ? ['pathname'] : dimensionColumns(q.dimensions[index]!, side.table, ctx);
    if (columns === null) return null;
    columns.forEach((column) => needed.add(column));
  }
  for (const filter of side.filters) {
    const columns = filterColumns(filter, side.table, ctx);
    if (columns === null) return null;
    columns.forEach((column) => needed.add(column));
  }
  return ROLLUP_TABLES.find((table) => table.family === side.table && [...needed].every((c) => table.keys.some((k) => k.column === c))) ?? null;
}

function dimensionColumns(dimension: string, table: Side['table'], ctx: CompileContext): readonly string[] | null {
  const kind = dimensionKind(dimension);
  switch (kind?.kind) {
    case 'column':
      return [table === 'sessions' ? (SESSION_DIMENSION_SUBSTITUTES[dimension] ?? storedColumn(kind.def.column)) : storedColumn(kind.def.column)];
    case 'time':
      return kind.interval === 'day' || kind.interval === 'week' || kind.interval === 'month' ? [] : null;
    case 'goal':
      return table === 'events' && !goalDimensionGoals(ctx.q).some(isScrollGoal) ? GOAL_COLUMNS : null;
    default:
      return null;
  }
}

/** The columns a filter reads on a table's own rows; null when it needs a subquery or a property. */
function filterColumns(tree: FilterTree, table: Side['table'], ctx: CompileContext): string[] | null {
  if (tree.op === 'has_done' || tree.op === 'has_not_done') return null;
  if ('children' in tree) {
    const parts = tree.children.map((child) => filterColumns(child, table, ctx));
    return parts.some((part) => part === null) ? null : parts.flatMap((part) => part ?? []);
  }
  if ('child' in tree) return filterColumns(tree.child, table, ctx);
  const kind = dimensionKind(tree.dimension);
  if (kind?.kind === 'goal') return table === 'events' && !selectGoals(tree, ctx.q.site.goals).some(isScrollGoal) ? [...GOAL_COLUMNS] : null;
  if (kind?.kind !== 'column') return null;
  // A leaf on a property the rows lack goes through the other table (src/query/sql/filters.ts).
  if ((table === 'events' && kind.def.scope === 'session') || (table === 'sessions' && kind.def.scope === 'event')) return null;
  return [storedColumn(kind.def.column)];
}

/**
 * The side read from `table`: its groups keyed as compile.ts keys raw ones (k<i>), its
 * aggregates in their roll-up forms (c<index>_<name>).
 */
export function rollupSideSql(side: Side, index: number, ctx: CompileContext, table: RollupTable, coverage: Coverage, among?: GroupSet): string {
  const { params, q, range } = ctx;
  const tz = params.string(q.tz);
  const lastDay = `toDate(${params.instant(range.last)}, ${tz})`;
  const site = params.add(q.site.id, 'UInt64');
  const key = (i: number) => {
    const dimension = q.dimensions[i]!;
    const kind = dimensionKind(dimension)!;
    if (kind.kind === 'time') {
      const day = side.table === 'events' ? 'day' : `least(last_day, ${lastDay})`;
      return dayBucket(ctx, kind.interval === 'week' || kind.interval === 'month' ? kind.interval : 'day', day);
    }
    if (kind.kind === 'goal') return goalKey(ctx);
    return storedKey(side, dimension, kind.kind === 'column' ? kind.def.column : '');
  };
  const dims = side.dims.map((i) => `${key(i)} AS k${i}`);
  const reading = windowReading(side, ctx, table, coverage);
  // Over one row per group, a column's own form where it has one; a visitor set read once otherwise.
  const oneRowEach = reading?.oneRowEach === true || dayRowEach(side, ctx, table);
  const columns = [...side.columns].map(([name, column]) => `${(oneRowEach && oneRowForm(column.rollup)) || column.rollup} AS c${index}_${name}`);
  const select = [...dims, ...columns];
  // What narrows the rows in any of their sources: stored rows and raw ones name these columns alike.
  const narrowing = [
    classificationCondition(ctx),
    ...filtersCondition(side.filters, side.table, ctx),
    ...side.extra.map((e) => e.sql),
    ...(among && side.dims.includes(among.dimension) ? [`toString(${key(among.dimension)}) IN ${params.strings(among.values)}`] : []),
  ];
  const reads: Reads = { used: usedColumns(table, select.join(', ')), narrowing, site, tz };
  const from = reading === null ? rollupRows(side, ctx, table, coverage, reads) : `(${windowRows(ctx, table, reads, reading.window, reading.rows)})`;
  const group = side.dims.map((i) => `k${i}`);
  return `SELECT ${select.join(', ')} FROM ${from}${group.length ? ` GROUP BY ${group.join(', ')}` : ''}`;
}

/**
 * How each source of a side's rows is read (day and week rows, a window's, raw rows of the days
 * not rolled up): filtered by `narrowing` where it is read, and passing on only the `used`
 * columns. A union read whole and filtered outside would take more planning, and carry every
 * column of it through each level (docs/benchmarks.md).
 */
interface Reads {
  used: string[];
  narrowing: string[];
  site: string;
  tz: string;
}

/** The table's columns an expression reads (at least one, so that a read of counts alone has a column). */
function usedColumns(table: RollupTable, expression: string): string[] {
  const used = allColumns(table).filter((column) => new RegExp(`\\b${column}\\b`).test(expression));
  return used.length > 0 ? used : ['site_id'];
}

/**
 * A column's form over one-row groups: a group's visitors are its row's own count (the merged
 * set's, src/stores/clickhouse/rollupWindows.ts), its sums the same (its row count, `__rows`, is
 * one); null for a form that needs the sets (visits of events).
 */
function oneRowForm(rollup: string | null): string | null {
  if (rollup === ROLLUP_VISITORS) return 'sum(visitor_bound)';
  return rollup === null || rollup.includes('Merge(') ? null : rollup;
}

/**
 * Whether each group of a side is one day row: the events totals (EVENT_TOTALS) by day, of one
 * classification. A day's events are one row there, inserted once (the job deletes a day's rows
 * before it rolls the day up again) and its bound that day's own visitors, as is the raw row
 * grouped beside them for a day not rolled up yet.
 */
function dayRowEach(side: Side, ctx: CompileContext, table: RollupTable): boolean {
  if (table !== EVENT_TOTALS || ctx.q.classifications.length > 0 || side.filters.length > 0 || side.extra.length > 0) return false;
  return side.dims.length === 1 && ctx.q.dimensions[side.dims[0]!] === 'time:day';
}

/**
 * How a side whose range is exactly a window, with nothing else narrowing its rows, reads the
 * window alone (src/stores/clickhouse/rollupWindows.ts): `rows`, a condition on the window's
 * rows; `oneRowEach` when each group is one row, `noSets` when its figures then need no visitor
 * set at all (visits of events do). Null: read as any range.
 * - A report by one column, or by none: the rows grouped by that column, or the one row.
 * - Goals: custom events merged by name across pages, and pageviews by page, as a goal is an
 *   event name or a pageview of some pages (src/query/goals.ts; scroll goals are read raw).
 */
export function windowReading(side: Side, ctx: CompileContext, table: RollupTable, coverage: Coverage): WindowReading | null {
  return stitched(ctx, coverage) ? null : windowGrouping(side, ctx, table, coverage);
}

interface WindowReading {
  window: RollupWindow;
  rows: string;
  oneRowEach: boolean;
  noSets: boolean;
}

/**
 * The rows of the window that is all of a side's rolled-up days, grouped as the side asks (see
 * windowReading), whether or not later days are read raw beside them: with today's rows stitched
 * on (`month`, `year`, `all`), a report by one column merges each group's one window set with the
 * raw day's instead of the window's rows by every key.
 */
function windowGrouping(side: Side, ctx: CompileContext, table: RollupTable, coverage: Coverage): WindowReading | null {
  const window = wholeWindow(side, ctx, table, coverage);
  return window === null ? null : groupedWindow(side, ctx, table, window);
}

/**
 * The rows of `window` grouped as the side asks (see windowReading), or null when it needs the
 * full rows. A range holding the window and more days merges its day and week rows into the same
 * groups, so it reads these too: the sources of 60 days holding last month merge one set per
 * source for the month, not one per referrer and tag.
 */
function groupedWindow(side: Side, ctx: CompileContext, table: RollupTable, window: RollupWindow): WindowReading | null {
  // Shown classes (src/query/sql/tables.ts) add their own rows to a group; filters need the keys they read.
  if (ctx.q.classifications.length > 0 || side.filters.length > 0 || side.dims.length > 1) return null;
  const { params } = ctx;
  const kind = side.dims.length === 0 ? null : dimensionKind(ctx.q.dimensions[side.dims[0]!]!);
  if (kind?.kind === 'goal') {
    const byName = table.keys.some((k) => k.column === 'name');
    if (!byName || side.extra.some((e) => e.columns === null || e.columns.some((c) => !GOAL_COLUMNS.includes(c)))) return null;
    return {
      window,
      rows: `((grouping = ${params.string('name')} AND name != 'pageview') OR (grouping = ${params.string(FULL)} AND name = 'pageview'))`,
      oneRowEach: false,
      noSets: false,
    };
  }
  if (side.extra.length > 0) return null;
  const noSets = [...side.columns.values()].every((column) => oneRowForm(column.rollup) !== null);
  if (kind === null) return { window, rows: `grouping = ${params.string(WHOLE)}`, oneRowEach: true, noSets };
  if (kind?.kind !== 'column') return null;
  const column = storedColumn(storedKey(side, ctx.q.dimensions[side.dims[0]!]!, kind.def.column));
  return table.keys.some((k) => k.column === column) ? { window, rows: `grouping = ${params.string(column)}`, oneRowEach: true, noSets } : null;
}

/** The stored column a side groups a column dimension by (a visit's page is its entry page…). */
function storedKey(side: Side, dimension: string, column: string): string {
  if (side.exitPageAsPath && dimension === 'visit:exit_page') return 'pathname';
  return side.table === 'sessions' ? (SESSION_DIMENSION_SUBSTITUTES[dimension] ?? column) : column;
}

/**
 * The rows of a window meeting `rows` (a condition on its grouping and keys), in the daily table's
 * columns, and those of the day so far when the range reads it (src/stores/clickhouse/daySoFar.ts).
 */
function windowRows(ctx: CompileContext, table: RollupTable, reads: Reads, window: RollupWindow, rows: string, daySoFar?: DaySoFar): string {
  const { params } = ctx;
  return windowRowsSql(table, reads.used, reads.site, {
    days: params.add(window.days, 'UInt8'),
    slot: params.add(window.slot, 'UInt8'),
    computed: params.add(window.computed, 'UInt64'),
    rows: and([rows, ...reads.narrowing]),
    daySoFar: daySoFar && { slot: params.add(daySoFar.slot, 'UInt8'), computed: params.add(daySoFar.computed, 'UInt64') },
  });
}

/** The days a range reads from roll-ups: from its first day to its last, or the last rolled up when that is earlier. */
function rolledSpan(ctx: CompileContext, coverage: Coverage): [LocalDate, LocalDate] {
  const { q, range } = ctx;
  const last = toLocal(range.last, q.tz);
  const through = parseIsoDate(coverage.through)!;
  return [toLocal(range.first, q.tz), dayNumber(last) < dayNumber(through) ? last : through];
}

/**
 * The window of the table (src/stores/clickhouse/rollupWindows.ts) within the range's rolled-up
 * days that leaves the fewest rows to merge per group, if reading one does; none for a report by
 * time, whose buckets need the days apart. Each row read holds a visitor set, and a busy group's
 * holds up to 65,536 hashes whatever its days, so the rows are what a range costs: a custom 85
 * days from a Thursday to yesterday reads the window from the next Monday and the week's last four
 * days before it (2 rows), not the 28 days ending yesterday with the runs and days before them
 * (docs/benchmarks.md).
 */
function windowFor(side: Side, ctx: CompileContext, table: RollupTable, coverage: Coverage): RollupWindow | null {
  if (side.dims.some((i) => dimensionKind(ctx.q.dimensions[i]!)?.kind === 'time')) return null;
  const [first, limit] = rolledSpan(ctx, coverage);
  // A query compiles each side several times (its sources, a ranking, the read), and weighing a site's
  // windows was the larger part of its planning (docs/benchmarks.md): the choice is kept per published
  // windows, which are replaced, never changed.
  const key = [table.name, formatDate(first), formatDate(limit), coverage.runsFrom, ctx.range.fromFirstEvent === true].join(' ');
  let chosen = windowChoices.get(coverage.windows);
  if (!chosen) windowChoices.set(coverage.windows, (chosen = new LRUCache({ max: 1_000 })));
  let choice = chosen.get(key);
  if (!choice) chosen.set(key, (choice = { window: fewestRowsWindow(table, first, limit, coverage, ctx) }));
  return choice.window;
}

/** Per published windows (src/rollups/coverageBook.ts), the window chosen for the spans last asked of each table. */
const windowChoices = new WeakMap<readonly RollupWindow[], LRUCache<string, { window: RollupWindow | null }>>();

function fewestRowsWindow(table: RollupTable, first: LocalDate, limit: LocalDate, coverage: Coverage, ctx: CompileContext): RollupWindow | null {
  const within = coverage.windows.filter((w) => w.table === table.name && startsWithin(w, formatDate(first), ctx) && w.last <= formatDate(limit));
  const rows = (w: RollupWindow) =>
    1 + rowsPerGroup(first, addDays(parseIsoDate(w.first)!, -1), coverage) + rowsPerGroup(addDays(parseIsoDate(w.last)!, 1), limit, coverage);
  let best: { window: RollupWindow | null; rows: number } = { window: null, rows: rowsPerGroup(first, limit, coverage) };
  for (const w of within) {
    const read = rows(w);
    // On a tie, a window: its rows can be grouped by the report's column, where runs keep every key.
    const better = read < best.rows || (read === best.rows && (best.window === null || windowLength(w) > windowLength(best.window)));
    if (better) best = { window: w, rows: read };
  }
  return best.window;
}

/** The stored rows a group's days from `from` to `to` are read from: one per block (as rangeRows reads them), one per other day. */
function rowsPerGroup(from: LocalDate, to: LocalDate, coverage: Coverage): number {
  const days = dayNumber(to) - dayNumber(from) + 1;
  if (days <= 0) return 0;
  const blocks = blocksWithin(from, to, parseIsoDate(coverage.runsFrom)!);
  return days - blocks.reduce((held, block) => held + block.days - 1, 0);
}

/** Whether a window starts within a range beginning on `first`: the open `all` window does in a range from the site's first day. */
function startsWithin(window: RollupWindow, first: string, ctx: CompileContext): boolean {
  return window.first >= first || (window.first === OPEN_START && ctx.range.fromFirstEvent === true);
}

/**
 * Whether ranking a side's groups by their summed visitor counts (src/query/plan/leadingGroups.ts)
 * is needless: the side reads each group's own count from one row and no visitor set.
 */
export const rankingNeedless = (side: Side, ctx: CompileContext, table: RollupTable, coverage: Coverage): boolean =>
  windowReading(side, ctx, table, coverage)?.noSets === true;

/** The window that is all of the range's rolled-up days, if one is. */
function wholeWindow(side: Side, ctx: CompileContext, table: RollupTable, coverage: Coverage): RollupWindow | null {
  const window = windowFor(side, ctx, table, coverage);
  const [first, limit] = rolledSpan(ctx, coverage).map(formatDate);
  return window !== null && (window.first === first || window.first === OPEN_START) && window.last === limit ? window : null;
}

/** Rows of a range that one stored row holds merged: `rows` picks the stored rows, `holds` the day rows they stand for. */
type Merged = ReturnType<typeof blockRows>;

/**
 * The rows of the range: events of its days; visits last active on or after its first day and
 * begun by its last (src/query/sql/tables.ts sessionsBase). A window within the rolled-up days is
 * read as its window rows, the days outside it as the blocks stored (src/stores/clickhouse/dailyRollups.ts
 * blocksWithin: runs of weeks, a week's first or last days), and the day rows they hold are left
 * out; day and month buckets read day rows throughout (a week may straddle two months), week
 * buckets weeks and the partial weeks at either end.
 */
function rangeRows(side: Side, ctx: CompileContext, table: RollupTable, coverage: Coverage): string {
  const { params, q, range } = ctx;
  const window = windowFor(side, ctx, table, coverage);
  const date = (day: LocalDate) => params.add(formatDate(day), 'Date');
  const first = toLocal(range.first, q.tz);
  const last = toLocal(range.last, q.tz);
  const inRange = side.table === 'events' ? `day >= ${date(first)} AND day <= ${date(last)}` : `last_day >= ${date(first)} AND first_day <= ${date(last)}`;
  const daysOnly = `days = 1 AND ${inRange}`;
  if (side.dims.some((i) => q.dimensions[i] === 'time:day' || q.dimensions[i] === 'time:month')) return daysOnly;
  const [, limit] = rolledSpan(ctx, coverage);
  const merged: Merged[] = [];
  let spans: [LocalDate, LocalDate][] = [[first, limit]];
  if (window) {
    const [from, to] = [parseIsoDate(window.first)!, parseIsoDate(window.last)!];
    // Of the rolled-up days only: a visit begun in the window and still going today was not rolled up with it.
    merged.push({ rows: 'days = 0', holds: `${WINDOW_HOLDS[table.family](date(from), date(to))} AND ${rowDay(table)} <= ${date(limit)}` });
    spans = [
      [first, addDays(from, -1)],
      [addDays(to, 1), limit],
    ];
  }
  const lengths = side.dims.some((i) => q.dimensions[i] === 'time:week') ? [1] : SPAN_WEEKS;
  for (const [from, to] of spans) {
    const blocks = blocksWithin(from, to, parseIsoDate(coverage.runsFrom)!, lengths);
    if (blocks.length > 0) merged.push(blockRows(table, blocks, date));
  }
  if (merged.length === 0) return daysOnly;
  return [...merged.map((m) => `(${m.rows})`), `(${daysOnly} AND NOT (${merged.map((m) => m.holds).join(' OR ')}))`].join(' OR ');
}

/** Whether a range reaches past the roll-ups, so its later days are read raw. */
export const stitched = (ctx: CompileContext, coverage: Coverage) => ctx.range.last > coverage.until;

/**
 * What a side reads the range from (a FROM clause): the roll-up's rows alone, or with the rows of
 * a window, and with the grouped raw rows of the days after it.
 */
function rollupRows(side: Side, ctx: CompileContext, table: RollupTable, coverage: Coverage, reads: Reads): string {
  const { params, range } = ctx;
  const { used, site, tz } = reads;
  const window = windowFor(side, ctx, table, coverage);
  const later = stitched(ctx, coverage);
  // Today's rows before the day so far's cut come with the window's, in the same read; raw only those after it.
  const daySoFar = later && window && coverage.daySoFar && range.last >= coverage.daySoFar.cuts.events ? coverage.daySoFar : undefined;
  const stored = [`site_id = ${site}`, ...(later ? [`${rowDay(table)} <= toDate(${params.instant(coverage.until)}, ${tz})`] : [])];
  const dayRows = `${rollupTableName(table)} WHERE ${and([...stored, rangeRows(side, ctx, table, coverage), ...reads.narrowing])}`;
  // The table's rows alone are read in place, as plainly as a statement can.
  if (!later && !window) return dayRows;
  // The window's rows come first: a group's merged set then starts from its window's set, the largest, and
  // the other rows' few hashes go into it, mostly dropped on arrival by a set that has reached its
  // degree. Merged the other way round (the day rows' sets first, the window's thousands of hashes
  // inserted into them), every hash is kept and then dropped again (docs/benchmarks.md).
  const parts = window
    ? [windowRows(ctx, table, reads, window, groupedWindow(side, ctx, table, window)?.rows ?? `grouping = ${params.string(FULL)}`, daySoFar)]
    : [];
  // A window holding every rolled-up day of the range leaves none of the table's own rows to read.
  if (!wholeWindow(side, ctx, table, coverage)) parts.push(`SELECT ${used.join(', ')} FROM ${dayRows}`);
  if (later) {
    // Every raw row read is in the range's days, which rangeRows checks of stored rows.
    const recent = [`site_id = ${site}`, `timestamp > ${params.instant(coverage.until)}`];
    if (table.family === 'events') recent.push(`timestamp <= ${params.instant(range.last)}`);
    else recent.push(`start >= ${params.instant(earliestVisitStart(coverage.until))}`, `start <= ${params.instant(range.last)}`);
    // The rows after a day so far's cut are the last minutes of today's, which lie across all of the
    // day's granules (the tables are ordered by day, then name or visitor): their time read first,
    // the other columns of the few rows that meet it only, where ClickHouse would read a filtered
    // column of every row of the day first (docs/benchmarks.md). A visits' cut early in the day would fall before it: the day's start is kept.
    const prewhere = daySoFar && `timestamp >= ${params.instant(daySoFar.cuts[table.family])}`;
    parts.push(`SELECT ${used.join(', ')} FROM (${rollupSelect(table, and([...recent, ...reads.narrowing]), tz, { columns: used, prewhere })})`);
  }
  return `(${parts.join(' UNION ALL ')})`;
}

/**
 * The groups of a one-dimension side ranked by their summed visitor counts (src/query/plan/leadingGroups.ts),
 * `count` + 1 of them: the candidates and the first group left out.
 */
export function boundsSql(side: Side, ctx: CompileContext, table: RollupTable, coverage: Coverage, count: number): string {
  const ranked: Side = { ...side, columns: new Map([['bound', { raw: 'NULL', rollup: 'sum(visitor_bound)' }]]) };
  const rows = rollupSideSql(ranked, 0, ctx, table, coverage);
  return `SELECT toString(k${side.dims[0]}) AS value, c0_bound AS bound FROM (${rows}) ORDER BY bound DESC, value LIMIT ${ctx.params.add(count + 1, 'UInt32')}`;
}
