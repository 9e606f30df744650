import { type DimensionKind, dimensionKind } from '../catalog.js';
import { columnLeaf, valueCondition } from '../columnConditions.js';
import type { FilterLeaf } from '../filterTrees.js';
import { goalCondition, isScrollGoal, selectGoals } from '../goals.js';
import type { CompileContext, FilterTree } from '../model.js';
import { and, eventsBase, fromTable, sessionsBase } from './tables.js';

/**
 * Filter trees compiled to a WHERE condition on events or sessions rows. A leaf on a property
 * the rows lack goes through the other table by session id: a visit filter on events keeps the
 * events of matching visits, an event filter on sessions keeps visits with a matching event.
 */

export type RowTable = 'events' | 'sessions';

export function filtersCondition(filters: FilterTree[], table: RowTable, ctx: CompileContext): string[] {
  return filters.map((filter) => treeCondition(filter, table, ctx));
}

/**
 * Whether a top-level filter is a test of the row's visit id against a subquery on the other
 * table (a leaf on a property the rows lack, or "visits that did"). ClickHouse does not move such
 * a condition to PREWHERE by itself; the visit ids are read first, and the other columns only for
 * the rows that pass, so a visit report filtered by a page does not read every visit whole
 * (docs/benchmarks.md).
 */
export function isVisitSetTest(tree: FilterTree, table: RowTable): boolean {
  if (tree.op === 'has_done' || tree.op === 'has_not_done') return true;
  return 'dimension' in tree && lacksProperty(table, dimensionKind(tree.dimension)!);
}

/** Whether rows of a table lack a leaf's property, so the leaf goes through the other table. */
function lacksProperty(table: RowTable, kind: DimensionKind): boolean {
  const scope = kind.kind === 'column' ? kind.def.scope : 'event';
  return (table === 'events' && scope === 'session') || (table === 'sessions' && scope === 'event');
}

function treeCondition(tree: FilterTree, table: RowTable, ctx: CompileContext): string {
  switch (tree.op) {
    case 'and':
    case 'or':
      return tree.children.map((child) => `(${treeCondition(child, table, ctx)})`).join(tree.op === 'and' ? ' AND ' : ' OR ');
    case 'not':
      return `NOT (${treeCondition(tree.child, table, ctx)})`;
    case 'has_done':
    case 'has_not_done': {
      const inner = treeCondition(tree.child, 'events', ctx);
      const engagement = usesScrollGoals(tree.child, ctx);
      const visits = `SELECT session_id FROM ${fromTable(ctx, 'events')} WHERE ${and([...eventsBase(ctx, { engagement }), inner])}`;
      return `session_id ${tree.op === 'has_done' ? 'IN' : 'NOT IN'} (${visits})`;
    }
    default:
      return leafCondition(tree, table, ctx);
  }
}

function leafCondition(leaf: FilterLeaf, table: RowTable, ctx: CompileContext): string {
  const kind = dimensionKind(leaf.dimension)!;
  if (lacksProperty(table, kind)) {
    if (table === 'events') {
      const visits = `SELECT session_id FROM ${fromTable(ctx, 'sessions')} WHERE ${and([...sessionsBase(ctx), leafCondition(leaf, 'sessions', ctx)])} GROUP BY session_id HAVING sum(sign) > 0`;
      return `session_id IN (${visits})`;
    }
    const engagement = kind.kind === 'goal' && selectGoals(leaf, ctx.q.site.goals).some(isScrollGoal);
    const visits = `SELECT session_id FROM ${fromTable(ctx, 'events')} WHERE ${and([...eventsBase(ctx, { engagement }), leafCondition(leaf, 'events', ctx)])}`;
    return `session_id IN (${visits})`;
  }
  if (kind.kind === 'goal') return goalLeaf(leaf, ctx);
  if (kind.kind === 'prop') return propLeaf(leaf, kind.prop, ctx);
  if (kind.kind === 'column') return columnLeaf(leaf, kind.def.column, kind.def, ctx);
  return '0';
}

/**
 * Custom properties: `is` also matches events without the property when the values include
 * `(none)`; the pattern operators (and their negations) need the property present.
 */
function propLeaf(leaf: FilterLeaf, prop: string, ctx: CompileContext): string {
  const key = ctx.params.string(prop);
  const present = `mapContains(props, ${key})`;
  const value = `props[${key}]`;
  if (leaf.op === 'is' || leaf.op === 'is_not') {
    const listed = leaf.values.filter((v) => v !== '(none)');
    const conditions = listed.length ? [`(${present} AND ${valueCondition({ ...leaf, values: listed }, value, null, ctx)})`] : [];
    if (listed.length < leaf.values.length) conditions.push(`NOT ${present}`);
    const positive = conditions.join(' OR ');
    return leaf.op === 'is' ? positive : `NOT (${positive})`;
  }
  const positive = valueCondition(leaf, value, null, ctx);
  return `${present} AND ${leaf.op.endsWith('_not') ? `NOT (${positive})` : positive}`;
}

export function goalLeaf(leaf: FilterLeaf, ctx: CompileContext): string {
  const selected = selectGoals(leaf, ctx.q.site.goals);
  const positive = selected.length ? selected.map((goal) => goalCondition(goal, ctx.params)).join(' OR ') : '0';
  return leaf.op.endsWith('_not') ? `NOT (${positive})` : positive;
}

/** Whether a tree selects scroll goals, whose engagement rows the usual events base leaves out. */
export function usesScrollGoals(tree: FilterTree, ctx: CompileContext): boolean {
  if ('dimension' in tree) return tree.dimension === 'event:goal' && selectGoals(tree, ctx.q.site.goals).some(isScrollGoal);
  if ('children' in tree) return tree.children.some((child) => usesScrollGoals(child, ctx));
  return usesScrollGoals(tree.child, ctx);
}
