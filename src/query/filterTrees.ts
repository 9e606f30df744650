import { dimensionKind } from './catalog.js';
import type { FilterTree } from './model.js';

/**
 * What a filter tree says about the rows it keeps, read alike by the metric registry
 * (src/query/metrics.ts: a conversion rate's whole, exit rate's pageviews) and the SQL compiler
 * (src/query/sql/): below both, so neither imports the other for it.
 */

/** A filter tree's leaf: one dimension tested against values. */
export type FilterLeaf = Extract<FilterTree, { values: string[] }>;

/** The filters without their top-level leaves on the dimensions `drop` names (combinators are kept whole). */
export function withoutTopLevel(filters: FilterTree[], drop: (dimension: string) => boolean): FilterTree[] {
  return filters.filter((f) => !('dimension' in f && drop(f.dimension)));
}

/** Whether a filter keeps or drops whole visits: it tests visit attributes or what a visit did (has_done), never one event's. */
export function selectsVisits(tree: FilterTree): boolean {
  if (tree.op === 'has_done' || tree.op === 'has_not_done') return true;
  if ('dimension' in tree) return isVisitColumn(tree.dimension);
  if ('children' in tree) return tree.children.every(selectsVisits);
  return selectsVisits(tree.child);
}

/** A dimension every row of a visit carries alike (source, country, entry page…), events and visits rows both. */
export function isVisitColumn(dimension: string): boolean {
  const kind = dimensionKind(dimension);
  return kind?.kind === 'column' && kind.def.scope !== 'event';
}

/** A conversion rate's denominator: the visitors of the query without its goal and custom-property filters. */
export const conversionDenominatorFilters = (filters: FilterTree[]) => withoutTopLevel(filters, (d) => d === 'event:goal' || d.startsWith('event:props:'));
