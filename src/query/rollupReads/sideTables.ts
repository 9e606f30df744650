import { ROLLUP_TABLES, type RollupTable } from '../../stores/clickhouse/dailyRollups.js';
import { dimensionKind } from '../catalog.js';
import { GOAL_COLUMNS, goalDimensionGoals, isScrollGoal, selectGoals } from '../goals.js';
import type { CompileContext, FilterTree, Side } from '../model.js';
import { SESSION_DIMENSION_SUBSTITUTES } from '../sql/dimensionSql.js';

/**
 * Which daily table answers a side (src/stores/clickhouse/dailyRollups.ts): one whose keys hold
 * every column the side groups or filters by, when every aggregate has a roll-up form. Each table
 * reads one raw table and keeps its column names, so a side's conditions read the same on both.
 */

/** The stored column of a dimension's expression (`toString(country_code)` reads `country_code`). */
export const storedColumn = (expression: string) => /^toString\((\w+)\)$/.exec(expression)?.[1] ?? expression;

/** The stored column a side groups a column dimension by (a visit's page is its entry page…). */
export function storedKey(side: Side, dimension: string, column: string): string {
  if (side.exitPageAsPath && dimension === 'visit:exit_page') return 'pathname';
  return side.table === 'sessions' ? (SESSION_DIMENSION_SUBSTITUTES[dimension] ?? column) : column;
}

/**
 * The daily table with the fewest keys (ROLLUP_TABLES' order) that answers a side, or null when
 * only raw rows can. Whether the range is one the roll-ups serve is asked before (rollupReads.ts).
 */
export function dailyTableFor(side: Side, ctx: CompileContext): RollupTable | null {
  const { q } = ctx;
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
