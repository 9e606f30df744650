import { dimensionKind } from '../catalog.js';
import type { ResolvedQuery } from '../model.js';

/**
 * Leading groups: a breakdown ordered by visitors and answered from roll-ups merges the visitor
 * sets of only the groups that can reach the page asked for.
 *
 * Merging visitor sets is what a breakdown from roll-ups costs (docs/rollups.md): the pages of a
 * site over 91 days merge about two thousand pages' weekly sets, most of them of pages far down
 * the list. Every roll-up row also keeps its own visitor count (`visitor_bound`,
 * src/stores/clickhouse/dailyRollups.ts), and a group's summed counts are never fewer than its
 * visitors. So the engine first ranks the groups by those sums, which are plain numbers, then
 * merges the sets of the leading groups alone, and keeps that answer only when the last row it
 * needs has more visitors than any group left out could have (src/query/run/engine.ts). Otherwise it
 * reads every group. The answer never changes; only the work does.
 *
 * `uniq` counts exactly up to 65,536 distinct hashes and estimates from a sample of 32,768 to
 * 65,536 of them beyond that (ClickHouse's reference for `uniq`), so an estimate is no longer
 * bounded by the counts it was merged from: it may exceed their sum by its own error, whose
 * standard deviation is at most 1/√32,768 ≈ 0.55 %. Where the groups left out reach that range,
 * the last row must lead them by ESTIMATE_MARGIN, which an estimate could only cross by some ten
 * standard deviations. Below it every set, and every union, is counted exactly and any lead will do.
 */
export const UNIQ_EXACT_LIMIT = 65_536;
export const ESTIMATE_MARGIN = 1.07;

/**
 * How many rows a query needs when it may read its leading groups only (the page and the row past
 * it, which says whether groups were cut off), or null when it may not: one dimension stored as a
 * column, ordered by visitors first, without imported data (whose groups the roll-ups do not
 * rank) or a count of every group.
 */
export function leadingRows(q: ResolvedQuery, imported: boolean): number | null {
  if (imported || q.totalRows || q.dimensions.length !== 1 || dimensionKind(q.dimensions[0]!)?.kind !== 'column') return null;
  const [first] = q.orderBy;
  return first?.[0] === 'visitors' && first[1] === 'desc' ? q.offset + q.limit + 1 : null;
}

/**
 * Groups merged for a page of `rows` rows: about twice as many, so that a few groups whose
 * visitors return week after week (their sums far above their visitors) rarely force a second read.
 */
export const candidateCount = (rows: number) => 2 * rows + 20;

/**
 * Groups merged first when the ranking's sums are about each group's own visitors (a range read
 * from one window, src/stores/clickhouse/rollupWindows.ts): a few past the page usually settle it,
 * and candidateCount's groups are merged only when they do not.
 */
export const tightCandidateCount = (rows: number) => rows + 4;

/**
 * Whether an answer read from the leading groups is the whole query's: its row `rows` (1-based,
 * counted from the first row of the whole result) has more visitors than `threshold`, the largest
 * sum of a group left out (by ESTIMATE_MARGIN where sums reach uniq's estimates).
 */
export function leadsAll(visitorsOfRows: number[], rows: number, offset: number, threshold: number): boolean {
  const last = visitorsOfRows[rows - 1 - offset];
  return last !== undefined && last > (threshold < UNIQ_EXACT_LIMIT ? threshold : threshold * ESTIMATE_MARGIN);
}
