import type { ClickHouseClient } from '@clickhouse/client';
import { type Clock, systemClock } from '../clock.js';
import type { Coverage } from '../stores/clickhouse/rollupStore.js';
import { addDays, formatDate, toLocal } from '../time/localTime.js';
import { coverageOf, day, openCoverageBook } from './coverageBook.js';
import { refreshDaySoFar } from './daySoFar.js';
import { type RollupRound, type RollupSite, rollSite } from './rollSite.js';

/**
 * Keeps the daily roll-ups (src/stores/clickhouse/dailyRollups.ts) in step with raw events.
 *
 * A site's local day is rolled up once it is closed: ROLLUP_GRACE_MS (rollSite.ts) after its end,
 * when no visit can still move out of it (a visit ends after 30 minutes without an event) and the
 * write buffer has long written its rows. Its coverage — the last day rolled up, and the time
 * zone days were cut in — tells the query engine which days it may read from roll-ups; later days
 * are read raw and stitched on (src/query/rollupReads/).
 *
 * Rows written into a covered day (a historical import, a clock set back) pull the coverage back
 * at once, before the rows are buffered, so no query reads a stale roll-up; the next round
 * deletes the affected days' roll-ups and computes them again. A time-zone change cuts days
 * differently: the site's roll-ups are rebuilt from its first event.
 *
 * Several nodes (docs/scaling.md, Leases): coverage lives in the store (`rollup_coverage`), and the
 * copy each node keeps is read again every COVERAGE_RELOAD_MS, on `reload()` and at the start of
 * every round. A late row pulls the coverage back in the store too, so query nodes stop reading
 * those days' roll-ups at their next reload, and the node rolling up (the lease holder) recomputes
 * them. Before rolling days up the holder deletes any roll-up rows already there past the
 * coverage (a holder that died between writing rows and recording coverage, a coverage pulled
 * back by another node), so a day's sums are never added twice.
 *
 * The job's statements are in src/stores/clickhouse/rollupStore.ts; this node's copy of the
 * coverage is coverageBook.ts, and one round over one site is rollSite.ts.
 */

/** How often a node with other nodes beside it reads every site's coverage again (app.ts sets it for a server event store). */
export const COVERAGE_RELOAD_MS = 10_000;

export interface Rollups {
  /** What a query may read from roll-ups for a site; undefined while nothing is rolled up. */
  coverage(siteId: number): Coverage | undefined;
  /** An event at `at` is about to be written for a site: a covered day it falls in is recomputed. */
  noteWrite(siteId: number, at: number): void;
  /** Recompute what was invalidated and roll up every closed day of the given sites. */
  runOnce(sites: RollupSite[], now: number): Promise<{ sites: number; days: number }>;
  /**
   * Reads every site's coverage from the store again, taking what other nodes recorded since this
   * one last read or wrote it; a coverage pulled back there marks those days for recomputation.
   * For invalidation messages between nodes; the periodic re-read calls it too.
   */
  reload(): Promise<void>;
  /**
   * Stops the periodic re-read, and a round in progress at its next step (a chunk of days, a
   * table's windows, a site): the service is closing and must not wait for a long catch-up.
   * What the round recorded stands; the next start goes on from there.
   */
  stop(): void;
}

export interface RollupDeps {
  client: ClickHouseClient;
  /**
   * What coverage versions follow (the system clock unless given): they order the rows several
   * nodes write, so they need a clock all nodes share and that moves; the app's clock does not
   * serve, as a test's manual clock stands still.
   */
  versionClock?: Clock;
  cluster: string | null;
  /**
   * The memory one statement merging windows may use (a query's, QUERY_MEMORY_LIMIT_MB): past a
   * quarter of it the merge spills to disk, so it does not take the memory queries need.
   */
  memoryLimitBytes: number;
  /**
   * The bytes of visitor sets one statement merging windows is cut to hold, by estimate
   * (src/stores/clickhouse/rollupWindows.ts sliceCount): a quarter of memoryLimitBytes unless given.
   */
  windowSliceBytes?: number;
  /** Writes what ingestion holds, so a round reads every row noted before it began. */
  flushWrites(): Promise<void>;
  /** Whether rows ingestion took still wait for the store, which failed them: no day so far is merged without them (daySoFar.ts). */
  writesFailing?(): boolean;
  /** The events of today a site needs before its day so far is merged (daySoFar.ts; QueryConfig daySoFarEvents); unset: none is. */
  daySoFarEvents?: number;
  onError(error: unknown): void;
  /** Re-read coverage this often (COVERAGE_RELOAD_MS with several nodes); unset: only at rounds and on reload(). */
  reloadEveryMs?: number;
}

export async function openRollups(deps: RollupDeps): Promise<Rollups> {
  const book = await openCoverageBook(deps.client, deps.versionClock ?? systemClock);
  // Each coverage row also names the windows published with it, so a restarted service reads them at once.
  await book.reload();
  let halted = false;
  /** Whether every row noted before the round began is in the store (the flush at its start wrote them). */
  let settled = false;
  const round = roundOf(
    deps,
    book,
    () => halted,
    () => settled,
  );
  /** The site a round is rolling up: a write into it is noted even before it has any coverage. */
  let rolling: RollupSite | null = null;

  let running: Promise<{ sites: number; days: number }> | null = null;
  let reloading: Promise<void> | null = null;
  const reloadOnce = () => {
    reloading ??= book.reload().finally(() => {
      reloading = null;
    });
    return reloading;
  };
  const timer = deps.reloadEveryMs === undefined ? undefined : setInterval(() => void reloadOnce().catch(deps.onError), deps.reloadEveryMs);
  timer?.unref();
  return {
    coverage(siteId) {
      const coverage = book.covered.get(siteId);
      if (!coverage) return undefined;
      const today = book.daySoFar.get(siteId);
      return { ...coverage, windows: book.windows.get(siteId) ?? [], daySoFar: today?.through === coverage.through ? today.rows : undefined };
    },
    noteWrite(siteId, at) {
      const earliest = book.noted.get(siteId);
      if (earliest === undefined || at < earliest) book.noted.set(siteId, at);
      const current = book.covered.get(siteId);
      // A row before the day so far's cut is not in it (an import, a clock set back): queries read the day raw until the next round.
      const today = book.daySoFar.get(siteId);
      const beforeCut = today !== undefined && at < today.rows.cuts.events;
      if (beforeCut) book.daySoFar.delete(siteId);
      // The first round over a site has no coverage to pull back yet, but must stop before this day.
      const timezone = current?.timezone ?? (rolling?.id === siteId ? rolling.timezone : null);
      if (timezone === null || (current && at > current.until)) {
        if (beforeCut && current) book.persist(siteId, current).catch(deps.onError);
        return;
      }
      const from = formatDate(toLocal(at, timezone));
      book.markStale(siteId, from);
      if (!current) return;
      // Queries read these days raw from now on; the job deletes and recomputes them.
      book.windows.delete(siteId);
      const back = coverageOf(current.timezone, addDays(day(from), -1), current.runsFrom);
      book.covered.set(siteId, back);
      book.persist(siteId, back).catch(deps.onError);
    },
    runOnce(sites, now) {
      running ??= (async () => {
        // Rows noted from here on are checked against a day so far's cut (daySoFar.ts); those before are flushed.
        book.noted.clear();
        await deps.flushWrites();
        settled = !(deps.writesFailing?.() ?? false);
        // What other nodes recorded since (a previous holder's days, coverage pulled back by a late row).
        await reloadOnce();
        let days = 0;
        for (const site of sites) {
          if (halted) break;
          try {
            rolling = site;
            days += await rollSite(round, site, now);
            if (!halted) await refreshDaySoFar(round, site, now);
          } catch (error) {
            deps.onError(error);
          } finally {
            rolling = null;
          }
        }
        return { sites: sites.length, days };
      })().finally(() => {
        running = null;
      });
      return running;
    },
    reload: reloadOnce,
    stop() {
      halted = true;
      if (timer) clearInterval(timer);
    },
  };
}

/** The store and the settings a round's statements run with. */
function roundOf(deps: RollupDeps, book: RollupRound['book'], halted: () => boolean, settled: () => boolean): RollupRound {
  // On a cluster an insert into a Distributed table is forwarded in the background by default;
  // week and window rows are merged from rows just inserted, so those must be in place first.
  const inPlace = deps.cluster === null ? {} : { insert_distributed_sync: 1 as const };
  // A quarter of a query's memory: where a window merge spills to disk, and what one slice's sets are cut to fit.
  const quarter = Math.floor(deps.memoryLimitBytes / 4);
  const merging = {
    clickhouse_settings: {
      ...inPlace,
      max_memory_usage: String(deps.memoryLimitBytes),
      max_bytes_before_external_group_by: String(quarter),
      // Blocks of visitor sets of up to 256 KiB each: fewer rows per block, and one thread reading
      // them, keep what a merge holds at once small. It runs in the background; time is cheap there.
      // At 1,024 rows the busiest slices of a large site's pages windows asked more than the limit
      // and were refused; at 128 they fit, and the others are no slower (docs/benchmarks.md).
      max_block_size: '128',
      max_threads: 1,
    },
  };
  return {
    client: deps.client,
    cluster: deps.cluster,
    book,
    inPlace,
    merging,
    sliceBytes: deps.windowSliceBytes ?? quarter,
    daySoFarEvents: deps.daySoFarEvents ?? null,
    halted,
    settled,
    onError: deps.onError,
  };
}
