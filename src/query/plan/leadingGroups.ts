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
 * Groups merged for a page of `rows` rows when tightCandidateCount's did not settle it: about
 * twice as many, so that a few groups whose sums run far above their visitors rarely force a read
 * of every group.
 */
export const candidateCount = (rows: number) => 2 * rows + 20;

/**
 * Groups merged first: a group's summed counts are about its own visitors, since a stored visitor
 * id changes every day (src/ingest/salts.ts) and is on one day's rows but for a visit across the
 * salt's midnight, and a window's row counts its own (src/stores/clickhouse/rollupWindows.ts). So
 * a few past the page usually settle it.
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
