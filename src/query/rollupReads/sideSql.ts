import {
  allColumns,
  blockRows,
  blocksWithin,
  EVENT_TOTALS,
  type RollupTable,
  RUN_WEEKS,
  rollupSelect,
  rollupTableName,
  rowDay,
} from '../../stores/clickhouse/dailyRollups.js';
import type { DaySoFar } from '../../stores/clickhouse/daySoFar.js';
import type { Coverage } from '../../stores/clickhouse/rollupStore.js';
import { FULL, type RollupWindow, WINDOW_HOLDS, windowRowsSql } from '../../stores/clickhouse/rollupWindows.js';
import { earliestVisitStart } from '../../stores/clickhouse/schema.js';
import { addDays, formatDate, type LocalDate, parseIsoDate, toLocal } from '../../time/localTime.js';
import { dimensionKind } from '../catalog.js';
import type { CompileContext, GroupSet, RolledSide, Side } from '../model.js';
import { dayBucket, goalKey } from '../sql/dimensionSql.js';
import { filtersCondition } from '../sql/filters.js';
import { and, classificationCondition } from '../sql/tables.js';
import { stitched } from './coverage.js';
import { dailyTableFor, storedKey } from './sideTables.js';
import {
  lastRolledDay,
  oneRowForm,
  regroupedWindow,
  type TableRead,
  type WindowChoices,
  wholeWindow,
  windowFor,
  windowReading,
  windowRowsCondition,
} from './windowChoice.js';

/**
 * A side of a compiled query (src/query/sql/compile.ts) read from a daily roll-up
 * (src/stores/clickhouse/dailyRollups.ts) instead of raw rows: its SQL.
 *
 * A roll-up answers a side when the range is whole local days of the zone the roll-ups were cut
 * in, every aggregate has a roll-up form, and every column it groups or filters by is one of the
 * table's keys (sideTables.ts). The days the roll-ups do not cover yet (today, yesterday within
 * the grace) are the same grouped states computed from raw rows and added with UNION ALL, so one
 * range reads both and the states merge as one (stitched).
 */

/** A side as the roll-ups read it, its table and window chosen once; null when only raw rows answer it. */
export function rolledSide(side: Side, ctx: CompileContext, coverage: Coverage, choices: WindowChoices): RolledSide | null {
  const table = dailyTableFor(side, ctx);
  if (table === null) return null;
  const read: TableRead = { table, coverage, window: windowFor(side, ctx, table, coverage, choices) };
  // A side reading each group's own count from one row, and no visitor set, has nothing to rank.
  const rankless = windowReading(side, ctx, read)?.noSets === true;
  return {
    sql: (at, index, among) => rollupSideSql(side, index, at, read, among),
    ranking: (at, count) => (rankless ? null : rankingSql(side, at, read, count)),
  };
}

/**
 * The side read from its table: its groups keyed as compile.ts keys raw ones (k<i>), its
 * aggregates in their roll-up forms (c<index>_<name>).
 */
function rollupSideSql(side: Side, index: number, ctx: CompileContext, read: TableRead, among?: GroupSet): string {
  const { params, q, range } = ctx;
  const { table } = read;
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
  const reading = windowReading(side, ctx, read);
  const readingRows = reading && windowRowsCondition(ctx, reading.rows);
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
  const rows: RowSelection = { used: usedColumns(table, select.join(', ')), narrowing, site, tz };
  const from = reading === null ? rollupRows(side, ctx, read, rows) : `(${windowRows(ctx, table, rows, reading.window, readingRows!)})`;
  const group = side.dims.map((i) => `k${i}`);
  return `SELECT ${select.join(', ')} FROM ${from}${group.length ? ` GROUP BY ${group.join(', ')}` : ''}`;
}

/**
 * How each source of a side's rows is read (day rows and blocks, a window's, raw rows of the days
 * not rolled up): filtered by `narrowing` where it is read, and passing on only the `used`
 * columns. A union read whole and filtered outside would take more planning, and carry every
 * column of it through each level (docs/benchmarks.md).
 */
interface RowSelection {
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
 * The rows of a window meeting `rows` (a condition on its grouping and keys), in the daily table's
 * columns, and those of the day so far when the range reads it (src/stores/clickhouse/daySoFar.ts).
 */
function windowRows(ctx: CompileContext, table: RollupTable, selection: RowSelection, window: RollupWindow, rows: string, daySoFar?: DaySoFar): string {
  const { params } = ctx;
  return windowRowsSql(table, selection.used, selection.site, {
    days: params.add(window.days, 'UInt8'),
    slot: params.add(window.slot, 'UInt8'),
    computed: params.add(window.computed, 'UInt64'),
    rows: and([rows, ...selection.narrowing]),
    daySoFar: daySoFar && { slot: params.add(daySoFar.slot, 'UInt8'), computed: params.add(daySoFar.computed, 'UInt64') },
  });
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
function rangeRows(side: Side, ctx: CompileContext, read: TableRead): string {
  const { params, q, range } = ctx;
  const { table, coverage, window } = read;
  const date = (day: LocalDate) => params.add(formatDate(day), 'Date');
  const first = toLocal(range.first, q.tz);
  const last = toLocal(range.last, q.tz);
  const inRange = side.table === 'events' ? `day >= ${date(first)} AND day <= ${date(last)}` : `last_day >= ${date(first)} AND first_day <= ${date(last)}`;
  const daysOnly = `days = 1 AND ${inRange}`;
  if (side.dims.some((i) => q.dimensions[i] === 'time:day' || q.dimensions[i] === 'time:month')) return daysOnly;
  const limit = lastRolledDay(ctx, coverage);
  const merged: Merged[] = [];
  let stretches: [LocalDate, LocalDate][] = [[first, limit]];
  if (window) {
    const [from, to] = [parseIsoDate(window.first)!, parseIsoDate(window.last)!];
    // Of the rolled-up days only: a visit begun in the window and still going today was not rolled up with it.
    merged.push({ rows: 'days = 0', holds: `${WINDOW_HOLDS[table.family](date(from), date(to))} AND ${rowDay(table)} <= ${date(limit)}` });
    stretches = [
      [first, addDays(from, -1)],
      [addDays(to, 1), limit],
    ];
  }
  const lengths = side.dims.some((i) => q.dimensions[i] === 'time:week') ? [1] : RUN_WEEKS;
  for (const [from, to] of stretches) {
    const blocks = blocksWithin(from, to, parseIsoDate(coverage.runsFrom)!, lengths);
    if (blocks.length > 0) merged.push(blockRows(table, blocks, date));
  }
  if (merged.length === 0) return daysOnly;
  return [...merged.map((m) => `(${m.rows})`), `(${daysOnly} AND NOT (${merged.map((m) => m.holds).join(' OR ')}))`].join(' OR ');
}

/**
 * What a side reads the range from (a FROM clause): the table's rows alone, or with the rows of
 * a window, and with the grouped raw rows of the days after it (stitched).
 */
function rollupRows(side: Side, ctx: CompileContext, read: TableRead, selection: RowSelection): string {
  const { params, range } = ctx;
  const { table, coverage, window } = read;
  const { used, site, tz } = selection;
  const later = stitched(range, coverage);
  // Today's rows before the day so far's cut come with the window's, in the same read; raw only those after it.
  const daySoFar = later && window && coverage.daySoFar && range.last >= coverage.daySoFar.cuts.events ? coverage.daySoFar : undefined;
  const stored = [`site_id = ${site}`, ...(later ? [`${rowDay(table)} <= toDate(${params.instant(coverage.until)}, ${tz})`] : [])];
  const dayRows = `${rollupTableName(table)} WHERE ${and([...stored, rangeRows(side, ctx, read), ...selection.narrowing])}`;
  // The table's rows alone are read in place, as plainly as a statement can.
  if (!later && !window) return dayRows;
  // The window's rows come first: a group's merged set then starts from its window's set, the largest, and
  // the other rows' few hashes go into it, mostly dropped on arrival by a set that has reached its
  // degree. Merged the other way round (the day rows' sets first, the window's thousands of hashes
  // inserted into them), every hash is kept and then dropped again (docs/benchmarks.md).
  const parts = window
    ? [windowRows(ctx, table, selection, window, windowRowsCondition(ctx, regroupedWindow(side, ctx, table, window)?.rows ?? { grouping: FULL }), daySoFar)]
    : [];
  // A window holding every rolled-up day of the range leaves none of the table's own rows to read.
  if (!wholeWindow(read, ctx)) parts.push(`SELECT ${used.join(', ')} FROM ${dayRows}`);
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
    parts.push(`SELECT ${used.join(', ')} FROM (${rollupSelect(table, and([...recent, ...selection.narrowing]), tz, { columns: used, prewhere })})`);
  }
  return `(${parts.join(' UNION ALL ')})`;
}

/**
 * The groups of a one-dimension side ranked by their summed visitor bounds (leadingGroups.ts),
 * `count` + 1 of them: the candidates and the first group left out.
 */
function rankingSql(side: Side, ctx: CompileContext, read: TableRead, count: number): string {
  const ranked: Side = { ...side, columns: new Map([['bound', { raw: 'NULL', rollup: 'sum(visitor_bound)' }]]) };
  const rows = rollupSideSql(ranked, 0, ctx, read);
  return `SELECT toString(k${side.dims[0]}) AS value, c0_bound AS bound FROM (${rows}) ORDER BY bound DESC, value LIMIT ${ctx.params.add(count + 1, 'UInt32')}`;
}
