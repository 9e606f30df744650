import { DIMENSIONS, dimensionKind } from '../catalog.js';
import { columnLeaf } from '../columnConditions.js';
import { totalsOf } from '../metrics.js';
import type { CompileContext, FilterTree, ImportedTotal } from '../model.js';
import { type ImportedRead, type ImportedTable, localDays } from '../plan/importedPlan.js';
import { dayBucket, dimensionLabel, goalKey } from './dimensionSql.js';
import { goalLeaf } from './filters.js';
import { and } from './tables.js';

/**
 * The imported side of a query: grouped SELECTs on the chosen daily tables, groups labelled
 * exactly as the native side labels them (src/query/sql/dimensionSql.ts) so the two merge on the
 * labels, with the totals the query's metrics need as `<prefix>_<total>` columns. Pure; every
 * value is a parameter.
 */

/** The totals the query's metrics need from imported rows of its groups, each once. */
export function importedTotals(metrics: string[]): ImportedTotal[] {
  return [...new Set(metrics.flatMap(totalsOf))];
}

export function importedSubquery(ctx: CompileContext, read: ImportedRead, importIds: number[], totals: ImportedTotal[], prefix: string): string {
  const { q, params } = ctx;
  const { table } = read;
  const labels = read.dimensions.map((i) => `${dimensionLabel(ctx, q.dimensions[i]!, importedKey(ctx, table, q.dimensions[i]!))} AS d${i}`);
  const sums = totals.map((total) => `sum(${table.totals[total]}) AS ${prefix}_${total}`);
  const days = localDays(ctx.range, q.tz);
  const where = [
    `site_id = ${params.add(q.site.id, 'UInt64')}`,
    `import_id IN ${params.add(importIds, 'Array(UInt64)')}`,
    `date >= ${params.add(days.from, 'Date')}`,
    `date <= ${params.add(days.to, 'Date')}`,
    ...read.filters.map((filter) => filterCondition(ctx, table, filter)),
  ];
  const group = read.dimensions.map((i) => `d${i}`);
  return `SELECT ${[...labels, ...sums].join(', ')} FROM ${table.name} WHERE ${and(where)}${group.length ? ` GROUP BY ${group.join(', ')}` : ''}`;
}

function importedKey(ctx: CompileContext, table: ImportedTable, dimension: string): string {
  const kind = dimensionKind(dimension)!;
  if (kind.kind === 'goal') return goalKey(ctx);
  if (kind.kind === 'time') {
    // importedPlan refuses hour and minute buckets: imported rows are whole days.
    const interval = kind.interval === 'week' || kind.interval === 'month' ? kind.interval : 'day';
    return dayBucket(ctx, interval, 'date');
  }
  return table.dimensions[dimension]!;
}

/** A filter tree on the table's columns; importedPlan admitted only leaves the table holds. */
function filterCondition(ctx: CompileContext, table: ImportedTable, tree: FilterTree): string {
  switch (tree.op) {
    case 'and':
    case 'or':
      return tree.children.map((child) => `(${filterCondition(ctx, table, child)})`).join(tree.op === 'and' ? ' AND ' : ' OR ');
    case 'not':
      return `NOT (${filterCondition(ctx, table, tree.child)})`;
    case 'has_done':
    case 'has_not_done':
      return '0';
    default:
      if (tree.dimension === 'event:goal') return goalLeaf(tree, ctx);
      return columnLeaf(tree, table.dimensions[tree.dimension]!, DIMENSIONS[tree.dimension] ?? { emptyLabel: null }, ctx);
  }
}
