import { LRUCache } from 'lru-cache';
import type { QueryConfig } from '../../config/config.js';
import { AppError } from '../../errors.js';
import type { Coverage } from '../../stores/clickhouse/rollupStore.js';
import type { ExchangeRates } from '../exchangeRates.js';
import type { DateRange, GroupSet, ResolvedQuery } from '../model.js';
import type { ImportedSource } from '../plan/importedPlan.js';
import { candidateCount, leadingRows, leadsAll, tightCandidateCount } from '../plan/leadingGroups.js';
import { rawRowsCover, requireRawRows } from '../plan/rawHorizon.js';
import { type CompiledQuery, compileQuery } from '../sql/compile.js';
import { SqlParams } from '../sqlParams.js';
import type { Row, Statements } from './execute.js';
import { chooseSampleRate } from './sampling.js';

/** What one range is read with: a page of it or every group, the groups it is restricted to. */
export interface ReadOptions {
  paginate: boolean;
  restrictTo?: string[][];
  among?: GroupSet;
}

/** One range's statement and the rows it answered. */
export interface Answer {
  compiled: CompiledQuery;
  rows: Row[];
}

/**
 * The statements of one query (src/query/run/engine.ts runQuery): each range compiled and run,
 * from roll-ups where they answer every range, else raw and sampled when the site is large.
 */
export interface QueryReads {
  /** Reads a range; a roll-up read refused for memory is read raw instead, as is every later one. */
  run(range: DateRange, options: ReadOptions): Promise<Answer>;
  /** The primary range's page, from its leading groups first where roll-ups allow (src/query/plan/leadingGroups.ts). */
  primary(): Promise<Answer>;
  /** The fraction of visitors read (null: all of them), as the reads left it. */
  readonly sampleRate: number | null;
  /** Where the rows read came from. */
  readonly sources: ReadonlySet<string>;
}

export interface ReadSetup {
  q: ResolvedQuery;
  ranges: DateRange[];
  sql: Statements;
  rates: ExchangeRates;
  limits: QueryConfig;
  cluster: string | null;
  imported: ImportedSource | undefined;
  /** What the site's roll-ups cover; undefined reads every range raw. */
  coverage: Coverage | undefined;
}

/**
 * Per site, roll-up coverage (its zone and last day), dimension and filters, the widest range
 * ranked and how many groups its ranking returned (at most its candidates and one more). A range
 * within it has no more groups, so when those were few its ranking is spared: merging every group
 * is always a correct read.
 */
const seenGroups = new LRUCache<string, { first: number; last: number; groups: number }>({ max: 10_000 });

export async function openReads(setup: ReadSetup): Promise<QueryReads> {
  const { q, ranges, sql } = setup;
  const site = q.site;
  let rollups = setup.coverage;
  const compile = (range: DateRange, sampleRate: number | null, options: ReadOptions & { bounds?: number }) =>
    compileQuery({ q, params: new SqlParams(), range, sampleRate }, { rates: setup.rates, imported: setup.imported, rollups, ...options });
  // Roll-ups answer whole ranges exactly and fast, so a query they answer is never sampled; one
  // with a side read raw over a whole range is.
  const fromRollups =
    rollups !== undefined &&
    ranges.every((range) => {
      const { rawFrom } = compile(range, null, { paginate: false });
      return rawFrom === null || rawFrom > range.first;
    });
  let sampleRate = q.exact || fromRollups ? null : await chooseSampleRate(sql, setup.limits, site, ranges, setup.cluster);
  const sources = new Set<string>();

  const run = async (range: DateRange, options: ReadOptions): Promise<Answer> => {
    const compiled = compile(range, sampleRate, options);
    requireRawRows(site, compiled.rawFrom, 'query');
    try {
      const rows = await sql(compiled.sql, compiled.params);
      compiled.sources.forEach((source) => sources.add(source));
      return { compiled, rows };
    } catch (error) {
      // Merging many large visitor sets (the pages of a busy site over months) can need more
      // memory than one query may use, where raw rows can be sampled: read those instead, for
      // this range and any comparison after it (a comparison refused after its primary was
      // answered is the one case read from both; meta.sources then lists both). Not when raw
      // rows of these ranges were deleted: the refusal is the answer then.
      if (!compiled.sources.includes('rollup') || !(error instanceof AppError) || error.code !== 'query_too_large' || !rawRowsCover(site, ranges)) throw error;
      rollups = undefined;
      sampleRate = q.exact ? null : await chooseSampleRate(sql, setup.limits, site, ranges, setup.cluster);
      return run(range, options);
    }
  };

  /** The page read from the leading groups of a ranking from roll-ups, or null when the ranking cannot tell them. */
  const leading = async (rowsNeeded: number): Promise<Answer | null> => {
    const count = candidateCount(rowsNeeded);
    // Filters narrow the groups: a page filter leaves one page, which says nothing of every page.
    const seenKey = rollups && JSON.stringify([site.id, rollups.timezone, rollups.through, q.dimensions[0], q.filters, q.classifications]);
    const seen = seenKey ? seenGroups.get(seenKey) : undefined;
    // A dimension whose every group was a candidate in a ranking of a range holding this one (devices,
    // browsers, most sites' sources) is merged whole at once: the ranking would name them all again.
    if (seen && seen.first <= q.range.first && q.range.last <= seen.last && seen.groups <= count / 2) return null;
    const ranking = compile(q.range, null, { paginate: false, bounds: count });
    if (ranking.rankingNeedless !== false) return null;
    // A ranking refused for memory leaves the answer to the usual read and its fallback below.
    const ranked = await sql(ranking.sql, ranking.params).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'query_too_large') return [];
      throw error;
    });
    // The widest range ranked is kept: any range within it has no more groups than it had.
    if (seenKey && ranked.length > 0 && (!seen || (q.range.first <= seen.first && seen.last <= q.range.last))) {
      seenGroups.set(seenKey, { first: q.range.first, last: q.range.last, groups: ranked.length });
    }
    for (const candidates of [tightCandidateCount(rowsNeeded), count]) {
      if (ranked.length <= candidates) return null;
      const values = ranked.slice(0, candidates).map((row) => String(row.value));
      const answer = await run(q.range, { paginate: true, among: { dimension: 0, values } });
      // Refused for memory and read raw instead, it holds every group already.
      if (!answer.compiled.sources.includes('rollup')) return answer;
      const visitors = answer.rows.map((row) => Number(row[`m${q.metrics.indexOf('visitors')}`]));
      if (leadsAll(visitors, rowsNeeded, q.offset, Number(ranked[candidates]!.bound))) return answer;
    }
    return null;
  };
  // A breakdown by visitors from roll-ups reads its leading groups first.
  const needed = fromRollups ? leadingRows(q, setup.imported !== undefined) : null;

  return {
    run,
    primary: () => (needed === null ? run(q.range, { paginate: true }) : leading(needed).then((answer) => answer ?? run(q.range, { paginate: true }))),
    get sampleRate() {
      return sampleRate;
    },
    sources,
  };
}
