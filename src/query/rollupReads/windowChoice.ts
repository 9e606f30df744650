import { LRUCache } from 'lru-cache';
import { blocksWithin, type RollupTable } from '../../stores/clickhouse/dailyRollups.js';
import type { Coverage } from '../../stores/clickhouse/rollupStore.js';
import { FULL, OPEN_START, type RollupWindow, WHOLE, windowLength } from '../../stores/clickhouse/rollupWindows.js';
import { addDays, dayNumber, formatDate, type LocalDate, parseIsoDate, toLocal } from '../../time/localTime.js';
import { dimensionKind } from '../catalog.js';
import { GOAL_COLUMNS } from '../goals.js';
import { ROLLUP_VISITORS } from '../metrics.js';
import type { CompileContext, Side } from '../model.js';
import { stitched } from './coverage.js';
import { storedColumn, storedKey } from './sideTables.js';

/**
 * Which window a rolled-up side reads (src/stores/clickhouse/rollupWindows.ts), and which of its
 * rows: full rows, or rows regrouped by the report's column or by none.
 */

/** What a rolled-up side reads: its daily table, the coverage serving its range, and the window chosen of the table's (null: none). */
export interface TableRead {
  table: RollupTable;
  coverage: Coverage;
  window: RollupWindow | null;
}

/**
 * Per published windows (src/rollups/coverageBook.ts), the window chosen for the days last asked
 * of each table: weighing a site's windows was the larger part of planning a query, and every panel
 * of a dashboard asks the same days (docs/benchmarks.md). Published windows are replaced, never
 * changed, so the choice stands while they do. Held by the engine (rollupReads.ts).
 */
export type WindowChoices = WeakMap<readonly RollupWindow[], LRUCache<string, { window: RollupWindow | null }>>;

/** The days a range reads from roll-ups: from its first day to its last, or the last rolled up when that is earlier. */
function rolledDays(ctx: CompileContext, coverage: Coverage): [LocalDate, LocalDate] {
  const { q, range } = ctx;
  const last = toLocal(range.last, q.tz);
  const through = parseIsoDate(coverage.through)!;
  return [toLocal(range.first, q.tz), dayNumber(last) < dayNumber(through) ? last : through];
}

/** The last day a range reads from roll-ups. */
export const lastRolledDay = (ctx: CompileContext, coverage: Coverage): LocalDate => rolledDays(ctx, coverage)[1];

/**
 * The window of the table within the range's rolled-up days that leaves the fewest rows to merge
 * per group, if reading one does; none for a report by time, whose buckets need the days apart.
 * Each row read holds a visitor set, and a busy group's holds up to 65,536 hashes whatever its
 * days, so the rows are what a range costs: a custom 85 days from a Thursday to yesterday reads
 * the window from the next Monday and the week's last four days before it (2 rows), not the 28
 * days ending yesterday with the runs and days before them (docs/benchmarks.md).
 */
export function windowFor(side: Side, ctx: CompileContext, table: RollupTable, coverage: Coverage, choices: WindowChoices): RollupWindow | null {
  if (side.dims.some((i) => dimensionKind(ctx.q.dimensions[i]!)?.kind === 'time')) return null;
  const [first, limit] = rolledDays(ctx, coverage);
  const key = [table.name, formatDate(first), formatDate(limit), coverage.runsFrom, ctx.range.fromFirstEvent === true].join(' ');
  let chosen = choices.get(coverage.windows);
  if (!chosen) choices.set(coverage.windows, (chosen = new LRUCache({ max: 1_000 })));
  let choice = chosen.get(key);
  if (!choice) chosen.set(key, (choice = { window: fewestRowsWindow(table, first, limit, coverage, ctx) }));
  return choice.window;
}

function fewestRowsWindow(table: RollupTable, first: LocalDate, limit: LocalDate, coverage: Coverage, ctx: CompileContext): RollupWindow | null {
  const within = coverage.windows.filter((w) => w.table === table.name && startsWithin(w, formatDate(first), ctx) && w.last <= formatDate(limit));
  const rows = (w: RollupWindow) =>
    1 + rowsPerGroup(first, addDays(parseIsoDate(w.first)!, -1), coverage) + rowsPerGroup(addDays(parseIsoDate(w.last)!, 1), limit, coverage);
  let best: { window: RollupWindow | null; rows: number } = { window: null, rows: rowsPerGroup(first, limit, coverage) };
  for (const w of within) {
    const read = rows(w);
    // On a tie, a window: its rows can be regrouped by the report's column, where runs keep every key.
    const better = read < best.rows || (read === best.rows && (best.window === null || windowLength(w) > windowLength(best.window)));
    if (better) best = { window: w, rows: read };
  }
  return best.window;
}

/** The stored rows a group's days from `from` to `to` are read from: one per block (as sideSql.ts rangeRows reads them), one per other day. */
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

/** The window read, when it is all of the range's rolled-up days. */
export function wholeWindow(read: TableRead, ctx: CompileContext): RollupWindow | null {
  const { window } = read;
  const [first, limit] = rolledDays(ctx, read.coverage).map(formatDate);
  return window !== null && (window.first === first || window.first === OPEN_START) && window.last === limit ? window : null;
}

/**
 * A column's form over one-row groups: a group's visitors are its row's own count (the merged
 * set's, src/stores/clickhouse/rollupWindows.ts), its sums the same (its row count, `__rows`, is
 * one); null for a form that needs the sets (visits of events).
 */
export function oneRowForm(rollup: string | null): string | null {
  if (rollup === ROLLUP_VISITORS) return 'sum(visitor_bound)';
  return rollup === null || rollup.includes('Merge(') ? null : rollup;
}

/** Which of a window's rows a side reads: those of one grouping (FULL, WHOLE or a key column), or a goal's (`goals`). */
export type WindowRows = { grouping: string } | 'goals';

/**
 * How a side reads a window: `rows`, which of its rows; `oneRowEach` when each group is one row,
 * `noSets` when its figures then need no visitor set at all (visits of events do).
 */
export interface WindowReading {
  window: RollupWindow;
  rows: WindowRows;
  oneRowEach: boolean;
  noSets: boolean;
}

/**
 * How a side whose range is exactly a window, with nothing else narrowing its rows, reads the
 * window alone; null: read as any range.
 * - A report by one column, or by none: the rows regrouped by that column, or the one row.
 * - Goals: custom events merged by name across pages, and pageviews by page, as a goal is an
 *   event name or a pageview of some pages (src/query/goals.ts; scroll goals are read raw).
 */
export function windowReading(side: Side, ctx: CompileContext, read: TableRead): WindowReading | null {
  if (stitched(ctx.range, read.coverage)) return null;
  const window = wholeWindow(read, ctx);
  return window === null ? null : regroupedWindow(side, ctx, read.table, window);
}

/**
 * The rows of `window` regrouped as the side asks (see windowReading), or null when it needs the
 * full rows. A range holding the window and more days merges its day and week rows into the same
 * groups, so it reads these too: the sources of 60 days holding last month merge one set per
 * source for the month, not one per referrer and tag.
 */
export function regroupedWindow(side: Side, ctx: CompileContext, table: RollupTable, window: RollupWindow): WindowReading | null {
  // Shown classes (src/query/sql/tables.ts) add their own rows to a group; filters need the keys they read.
  if (ctx.q.classifications.length > 0 || side.filters.length > 0 || side.dims.length > 1) return null;
  const kind = side.dims.length === 0 ? null : dimensionKind(ctx.q.dimensions[side.dims[0]!]!);
  if (kind?.kind === 'goal') {
    const byName = table.keys.some((k) => k.column === 'name');
    if (!byName || side.extra.some((e) => e.columns === null || e.columns.some((c) => !GOAL_COLUMNS.includes(c)))) return null;
    return { window, rows: 'goals', oneRowEach: false, noSets: false };
  }
  if (side.extra.length > 0) return null;
  const noSets = [...side.columns.values()].every((column) => oneRowForm(column.rollup) !== null);
  if (kind === null) return { window, rows: { grouping: WHOLE }, oneRowEach: true, noSets };
  if (kind?.kind !== 'column') return null;
  const column = storedColumn(storedKey(side, ctx.q.dimensions[side.dims[0]!]!, kind.def.column));
  return table.keys.some((k) => k.column === column) ? { window, rows: { grouping: column }, oneRowEach: true, noSets } : null;
}

/** The condition on a window's rows picking `rows`. */
export function windowRowsCondition(ctx: CompileContext, rows: WindowRows): string {
  const { params } = ctx;
  if (rows === 'goals') return `((grouping = ${params.string('name')} AND name != 'pageview') OR (grouping = ${params.string(FULL)} AND name = 'pageview'))`;
  return `grouping = ${params.string(rows.grouping)}`;
}
