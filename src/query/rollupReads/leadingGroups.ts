import { LRUCache } from 'lru-cache';
import { AppError } from '../../errors.js';
import { dimensionKind } from '../catalog.js';
import type { DateRange, GroupSet, ResolvedQuery } from '../model.js';

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
 * needs has more visitors than any group left out could have (leadingPage). Otherwise it reads
 * every group. The answer never changes; only the work does.
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

/** A read of the primary range: its rows, and where the statement answering it read them from (src/query/run/reads.ts Answer). */
export interface PageAnswer {
  compiled: { sources: readonly string[] };
  rows: Record<string, unknown>[];
}

/** What the leading groups of a query's page are read with. */
export interface LeadingRead<A extends PageAnswer> {
  q: ResolvedQuery;
  /** Whether the site's imported data joins the answer: the roll-ups do not rank its groups. */
  imported: boolean;
  /** The primary range, prepared with the roll-ups answering every side of every range of the query (src/query/sql/compile.ts PreparedQuery). */
  prepared: { ranking(count: number): { sql: string; params: Record<string, unknown> } | null };
  /** Runs a statement (src/query/run/execute.ts Statements). */
  sql(sql: string, params: Record<string, unknown>): Promise<Record<string, unknown>[]>;
  /** The page read from only these groups, and raw instead when the roll-ups are refused for memory. */
  read(among: GroupSet): Promise<A>;
}

/**
 * Per query shape (the site's coverage, dimension and filters: a page filter leaves one page,
 * which says nothing of every page), the widest range ranked and how many groups its ranking
 * returned (at most its candidates and one more). A range within it has no more groups, so when
 * those were few its ranking is spared: merging every group is always a correct read. Held by the
 * engine (rollupReads.ts), one entry per shape, the oldest dropped first.
 */
export type RankedGroups = LRUCache<string, { first: number; last: number; groups: number }>;
export const rankedGroupsCache = (): RankedGroups => new LRUCache({ max: 10_000 });

/**
 * The page read from the leading groups of a ranking from roll-ups, or null when the query may not
 * read them (leadingRows) or the ranking cannot tell them: then every group is read. `shape` keys
 * `ranked`.
 */
export async function leadingPage<A extends PageAnswer>(page: LeadingRead<A>, ranked: RankedGroups, shape: string): Promise<A | null> {
  const { q, prepared } = page;
  const rowsNeeded = leadingRows(q, page.imported);
  if (rowsNeeded === null) return null;
  const count = candidateCount(rowsNeeded);
  const seen = ranked.get(shape);
  // A dimension whose every group was a candidate in a ranking of a range holding this one (devices,
  // browsers, most sites' sources) is merged whole at once: the ranking would name them all again.
  if (seen && holds(seen, q.range) && seen.groups <= count / 2) return null;
  const ranking = prepared.ranking(count);
  if (ranking === null) return null;
  // A ranking refused for memory leaves the answer to the usual read and its fallback.
  const rows = await page.sql(ranking.sql, ranking.params).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'query_too_large') return [];
    throw error;
  });
  // The widest range ranked is kept: any range within it has no more groups than it had.
  if (rows.length > 0 && (!seen || holds(q.range, seen))) ranked.set(shape, { first: q.range.first, last: q.range.last, groups: rows.length });
  for (const candidates of [tightCandidateCount(rowsNeeded), count]) {
    if (rows.length <= candidates) return null;
    const values = rows.slice(0, candidates).map((row) => String(row.value));
    const answer = await page.read({ dimension: 0, values });
    // Refused for memory and read raw instead, it holds every group already.
    if (!answer.compiled.sources.includes('rollup')) return answer;
    const visitors = answer.rows.map((row) => Number(row[`m${q.metrics.indexOf('visitors')}`]));
    if (leadsAll(visitors, rowsNeeded, q.offset, Number(rows[candidates]!.bound))) return answer;
  }
  return null;
}

/** Whether range `outer` holds range `inner`. */
const holds = (outer: Pick<DateRange, 'first' | 'last'>, inner: Pick<DateRange, 'first' | 'last'>) => outer.first <= inner.first && inner.last <= outer.last;
