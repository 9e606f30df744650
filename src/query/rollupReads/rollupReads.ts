import { LRUCache } from 'lru-cache';
import { AppError } from '../../errors.js';
import type { Coverage } from '../../stores/clickhouse/rollupStore.js';
import type { DateRange, RangeRollups, ResolvedQuery, SiteContext } from '../model.js';
import { servedCoverage, stitched } from './coverage.js';
import { type LeadingRead, leadingPage, type PageAnswer, rankedGroupsCache } from './leadingGroups.js';
import { rawRowsCover, requireRawRows } from './rawHorizon.js';
import { rolledSide } from './sideSql.js';
import type { WindowChoices } from './windowChoice.js';

/**
 * The query engine's one boundary with the daily roll-ups (docs/rollups.md). The engine asks, of
 * each side of a range, whether the roll-ups answer it and with which SQL (`range`, then
 * RangeRollups.side), and gets an answer or null; what decides lives here: the coverage serving
 * the range, the table and window each side reads (sideTables.ts, windowChoice.ts, sideSql.ts),
 * the leading groups of a breakdown (leadingGroups.ts), the raw horizon (rawHorizon.ts), the read
 * raw instead when a roll-up statement is refused for memory, and the engine's caches of them.
 */

/** What the engine learns of each site's roll-ups: src/rollups/rollups.ts keeps it. */
export interface CoverageSource {
  /** What a query may read from roll-ups for a site; undefined while nothing is rolled up. */
  coverage(siteId: number): Coverage | undefined;
}

/** The roll-up reads of one engine (made where its deps are built), with its caches, each bounded. */
export interface RollupReads {
  /** What the roll-ups answer of one query of a site, under the site's coverage as it stands now. */
  forQuery(site: SiteContext, source: CoverageSource | undefined): QueryRollups;
}

/** What the roll-ups answer of one query, under one coverage. */
export interface QueryRollups {
  /** The site's first event or rolled-up day (where `all` starts), read by `read` unless kept under this coverage. */
  firstEvent(read: () => Promise<number | null>): Promise<number | null>;
  /**
   * How the roll-ups answer the sides of a range, or null where they answer none: no coverage, a
   * sampled read, a range not made of whole days in the zone the days were cut in, or before them.
   */
  range(q: ResolvedQuery, range: DateRange, sampleRate: number | null): RangeRollups | null;
  /** Refuses a statement reading raw rows from `rawFrom` (null: none) that the site deleted (rawHorizon.ts). */
  requireRawRows(rawFrom: number | null): void;
  /**
   * After a statement reading roll-ups failed: whether every range of the query (`ranges`) is to be
   * read raw instead, and the roll-ups then answer nothing more of it. Merging many large visitor
   * sets (the pages of a busy site over months) can need more memory than one query may use, where
   * raw rows can be sampled; not when raw rows of these ranges were deleted: the refusal is the
   * answer then.
   */
  readRawInstead(error: unknown, ranges: DateRange[]): boolean;
  /** The primary range's page read from its leading groups (leadingGroups.ts), or null: read every group. */
  leadingPage<A extends PageAnswer>(page: LeadingRead<A>): Promise<A | null>;
}

export function openRollupReads(): RollupReads {
  /**
   * Per site, its first event as last read, with the coverage it was read under: the `all` range
   * asks for it in every panel, so it is read once, not nine times (docs/benchmarks.md). An earlier
   * event can only come as a late row, which pulls the coverage back and drops the site's windows at
   * once (src/rollups/rollups.ts noteWrite); windows merged after it carry a higher computation. So
   * the same days and the same windows mean the same first event, and without windows nothing is kept.
   */
  const firstEvents = new LRUCache<number, { under: string; first: number | null }>({ max: 10_000 });
  const ranked = rankedGroupsCache();
  const choices: WindowChoices = new WeakMap();

  return {
    forQuery(site, source) {
      let coverage = source?.coverage(site.id);
      const published = coverage && coverage.windows.length > 0 ? coverage : undefined;
      const under = published && JSON.stringify([published.timezone, published.through, Math.max(...published.windows.map((w) => w.computed))]);
      return {
        async firstEvent(read) {
          const kept = under === undefined ? undefined : firstEvents.get(site.id);
          if (kept !== undefined && kept.under === under) return kept.first;
          const first = await read();
          if (under !== undefined) firstEvents.set(site.id, { under, first });
          return first;
        },
        range(q, range, sampleRate) {
          if (coverage === undefined || sampleRate !== null || range.unit !== 'days' || q.tz !== coverage.timezone) return null;
          const served = servedCoverage(range, coverage);
          if (range.first > served.until) return null;
          return {
            side: (side, ctx) => rolledSide(side, ctx, served, choices),
            rawFrom: stitched(range, served) ? served.until + 1 : null,
          };
        },
        requireRawRows: (rawFrom) => requireRawRows(site, rawFrom, 'query'),
        readRawInstead(error, ranges) {
          if (!(error instanceof AppError) || error.code !== 'query_too_large' || !rawRowsCover(site, ranges)) return false;
          coverage = undefined;
          return true;
        },
        leadingPage(page) {
          if (coverage === undefined) return Promise.resolve(null);
          const { q } = page;
          return leadingPage(page, ranked, JSON.stringify([site.id, coverage.timezone, coverage.through, q.dimensions[0], q.filters, q.classifications]));
        },
      };
    },
  };
}
