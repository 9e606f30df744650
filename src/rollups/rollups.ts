import type { ClickHouseClient } from '@clickhouse/client';
import { allColumns, ROLLUP_COVERAGE, ROLLUP_TABLES, rollupSelect, rollupTableName, rowDay, weekSelect } from '../stores/clickhouse/dailyRollups.js';
import { deleteStatement } from '../stores/clickhouse/deleteRows.js';
import {
  groupedWindowInsert,
  groupedWindowSizeSql,
  LATEST_COMPUTATION_SQL,
  type RollupWindow,
  sliceCount,
  spanParameters,
  windowInsert,
  windowSizesSql,
  windowsEnding,
} from '../stores/clickhouse/rollupWindows.js';
import { FIRST_EVENT_SQL, firstEventFromRow } from '../stores/clickhouse/siteSpan.js';
import { addDays, dayNumber, endOfDay, formatDate, type LocalDate, parseIsoDate, startOfDay, toLocal, wholeWeeks } from '../time/localTime.js';

/**
 * Keeps the daily roll-ups (src/stores/clickhouse/dailyRollups.ts) in step with raw events.
 *
 * A site's local day is rolled up once it is closed: GRACE after its end, when no visit can still
 * move out of it (a visit ends after 30 minutes without an event) and the write buffer has long
 * written its rows. Its coverage — the last day rolled up, and the time zone days were cut in —
 * tells the query engine which days it may read from roll-ups; later days are read raw and
 * stitched on (src/query/sql/rollupSource.ts).
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
 */
export const ROLLUP_GRACE_MS = 2 * 3_600_000;

/** Days per INSERT … SELECT when catching up, so one statement's memory stays bounded. */
const CHUNK_DAYS = 31;

/** How often a node with other nodes beside it reads every site's coverage again (app.ts sets it for a server event store). */
export const COVERAGE_RELOAD_MS = 10_000;

export interface Coverage {
  timezone: string;
  /** The last local day rolled up (`YYYY-MM-DD`). */
  through: string;
  /** The last instant of that day in `timezone`. */
  until: number;
  /** Preset ranges merged ahead per table (src/stores/clickhouse/rollupWindows.ts), each ending by `through`. */
  windows: readonly RollupWindow[];
}

export interface RollupSite {
  id: number;
  timezone: string;
  /** Where the site's raw events begin once older ones were deleted (src/rollups/retention.ts); null: all kept. */
  rawEventsFrom: number | null;
}

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
  /** Stops the periodic re-read. */
  stop(): void;
}

export interface RollupDeps {
  client: ClickHouseClient;
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
  onError(error: unknown): void;
  /** Re-read coverage this often (COVERAGE_RELOAD_MS with several nodes); unset: only at rounds and on reload(). */
  reloadEveryMs?: number;
}

interface CoverageRow {
  site_id: string;
  latest: string;
  timezone: string;
  through: string;
  computed: string;
  windows_through: string;
  tables: string[];
}

/** Each site's latest coverage row, the windows published with it and its version. */
const coverageSql = (where: string) =>
  `SELECT site_id, max(version) AS latest, argMax(timezone, version) AS timezone, toString(argMax(through, version)) AS through,
          argMax(windows_computed, version) AS computed, toString(argMax(windows_through, version)) AS windows_through,
          argMax(window_tables, version) AS tables
   FROM ${ROLLUP_COVERAGE.name} ${where} GROUP BY site_id`;

const day = (text: string): LocalDate => parseIsoDate(text)!;
type Covered = Omit<Coverage, 'windows'>;
const coverageOf = (timezone: string, through: LocalDate): Covered => ({ timezone, through: formatDate(through), until: endOfDay(through, timezone) });

export async function openRollups(deps: RollupDeps): Promise<Rollups> {
  const covered = new Map<number, Covered>();
  /** Per site, the windows published for queries; a site's are dropped whenever its days change. */
  const windows = new Map<number, RollupWindow[]>();
  /** The site a round is rolling up: a write into it is noted even before it has any coverage. */
  let rolling: RollupSite | null = null;
  /** Per site, the first day whose roll-ups must be recomputed. */
  const stale = new Map<number, string>();
  // Above any computation of window rows a previous process stored: a window's rows are replaced by higher ones.
  const [latest] = await select<{ computed: string }>(deps.client, LATEST_COMPUTATION_SQL);
  let version = Math.max(Date.now(), Number(latest?.computed ?? 0) + 1);

  /** Per site, the version of the coverage row this node last wrote or read: a higher one in the store is another node's. */
  const known = new Map<number, number>();

  /** Takes a coverage row newer than what this node knows of the site; true when it was. */
  const adopt = (row: CoverageRow): boolean => {
    const siteId = Number(row.site_id);
    const rowVersion = Number(row.latest);
    if (known.has(siteId) && rowVersion <= (known.get(siteId) as number)) return false;
    known.set(siteId, rowVersion);
    version = Math.max(version, rowVersion);
    const before = covered.get(siteId);
    windows.delete(siteId);
    if (row.timezone === '') {
      covered.delete(siteId);
      return true;
    }
    covered.set(siteId, coverageOf(row.timezone, day(row.through)));
    // Pulled back by another node (a late row there): the days after it are recomputed by the holder of the round.
    if (before && before.timezone === row.timezone && row.through < before.through) {
      const from = formatDate(addDays(day(row.through), 1));
      const earlier = stale.get(siteId);
      if (earlier === undefined || from < earlier) stale.set(siteId, from);
    }
    // Windows recorded before the coverage moved end on another day: the job merges them again.
    if (Number(row.computed) === 0 || row.windows_through !== row.through) return true;
    const spans = windowsEnding(day(row.through));
    windows.set(
      siteId,
      row.tables.flatMap((table) => spans.map((span) => ({ ...span, table, computed: Number(row.computed) }))),
    );
    return true;
  };
  const reload = async () => {
    for (const row of await select<CoverageRow>(deps.client, coverageSql(''))) adopt(row);
  };
  /** One site's row, read again just before this node records its coverage over what another may have written. */
  const reloadSite = async (siteId: number) => {
    for (const row of await select<CoverageRow>(deps.client, coverageSql('WHERE site_id = {site:UInt64}'), { site: siteId })) adopt(row);
  };

  // Each coverage row also names the windows published with it, so a restarted service reads them at once.
  await reload();

  const persist = async (siteId: number, coverage: Covered | undefined) => {
    version = Math.max(version + 1, Date.now());
    known.set(siteId, version);
    const published = windows.get(siteId) ?? [];
    const recorded = published.find((w) => w.slot === 0);
    await deps.client.insert({
      table: ROLLUP_COVERAGE.name,
      values: [
        {
          site_id: siteId,
          timezone: coverage?.timezone ?? '',
          through: coverage?.through ?? '1970-01-01',
          version,
          windows_computed: recorded?.computed ?? 0,
          // The day the windows end on: the coverage's last day when they were merged.
          windows_through: recorded?.last ?? '1970-01-01',
          window_tables: [...new Set(published.map((w) => w.table))],
        },
      ],
      format: 'JSONEachRow',
    });
  };
  const setCoverage = async (siteId: number, coverage: Covered | undefined) => {
    if (coverage) covered.set(siteId, coverage);
    else covered.delete(siteId);
    await persist(siteId, coverage);
  };

  // On a cluster an insert into a Distributed table is forwarded in the background by default;
  // week and window rows are merged from rows just inserted, so those must be in place first.
  const inPlace = deps.cluster === null ? {} : { insert_distributed_sync: 1 as const };
  // A quarter of a query's memory: where a window merge spills to disk, and what one slice's sets are cut to fit.
  const quarter = Math.floor(deps.memoryLimitBytes / 4);
  const sliceBytes = deps.windowSliceBytes ?? quarter;
  const merging = {
    clickhouse_settings: {
      ...inPlace,
      max_memory_usage: String(deps.memoryLimitBytes),
      max_bytes_before_external_group_by: String(quarter),
      // Blocks of visitor sets of up to 256 KiB each: fewer rows per block, and one thread reading
      // them, keep what a merge holds at once small. It runs in the background; time is cheap there.
      max_block_size: '1024',
      max_threads: 1,
    },
  };

  /** Deletes a site's roll-ups from `from` on, with the week holding it (all of them without `from`). */
  const deleteDays = async (siteId: number, from: string | null) => {
    windows.delete(siteId);
    for (const table of ROLLUP_TABLES) {
      const day = rowDay(table);
      const days = `((days = 1 AND ${day} >= {from:Date}) OR (days = 7 AND ${day} >= toMonday({from:Date})))`;
      const condition = from === null ? 'site_id = {site:UInt64}' : `site_id = {site:UInt64} AND ${days}`;
      await deps.client.command({ query: deleteStatement(rollupTableName(table), deps.cluster, condition), query_params: { site: siteId, from } });
    }
  };

  /** Whether a site has roll-up rows from `from` on (days past its coverage: a holder cut off, or coverage pulled back elsewhere). */
  const rowsFrom = async (siteId: number, from: string) => {
    const probes = ROLLUP_TABLES.map((table) => {
      const day = rowDay(table);
      return `SELECT 1 FROM ${rollupTableName(table)} WHERE site_id = {site:UInt64} AND ((days = 1 AND ${day} >= {from:Date}) OR (days = 7 AND ${day} >= toMonday({from:Date}))) LIMIT 1`;
    });
    const [found] = await select<{ n: string }>(deps.client, `SELECT count() AS n FROM (${probes.join(' UNION ALL ')})`, { site: siteId, from });
    return Number(found?.n ?? 0) > 0;
  };

  const rollDays = async (site: RollupSite, first: LocalDate, last: LocalDate) => {
    const where = "site_id = {site:UInt64} AND timestamp >= toDateTime({first:UInt32}, 'UTC') AND timestamp <= toDateTime({last:UInt32}, 'UTC')";
    const seconds = (ms: number) => Math.floor(ms / 1000);
    const params = { site: site.id, first: seconds(startOfDay(first, site.timezone)), last: seconds(endOfDay(last, site.timezone)), tz: site.timezone };
    // The weeks that end within these days: every one of their days is rolled up now.
    const ending = wholeWeeks(addDays(first, -6), last);
    const weeks = ending && { monday: formatDate(ending.monday), sunday: formatDate(ending.sunday) };
    for (const table of ROLLUP_TABLES) {
      const into = `INSERT INTO ${rollupTableName(table)} (${allColumns(table).join(', ')})`;
      await deps.client.command({ query: `${into} ${rollupSelect(table, where, '{tz:String}', true)}`, query_params: params, clickhouse_settings: inPlace });
      if (weeks) {
        const days = `site_id = {site:UInt64} AND ${rowDay(table)} >= {monday:Date} AND ${rowDay(table)} <= {sunday:Date}`;
        await deps.client.command({ query: `${into} ${weekSelect(table, days)}`, query_params: { site: site.id, ...weeks }, clickhouse_settings: inPlace });
      }
    }
  };

  const rollSite = async (site: RollupSite, now: number): Promise<number> => {
    rolling = site;
    let current = covered.get(site.id);
    // Days whose raw events are deleted cannot be computed again: a late row there (an import
    // racing the deletion) leaves their roll-ups as they are, and is deleted with the next days.
    const kept = site.rawEventsFrom === null ? undefined : formatDate(toLocal(site.rawEventsFrom, site.timezone));
    const noted = stale.get(site.id);
    const staleFrom = noted !== undefined && kept !== undefined && noted < kept ? kept : noted;
    stale.delete(site.id);
    if (current && current.timezone !== site.timezone) {
      await setCoverage(site.id, undefined);
      await deleteDays(site.id, null);
      current = undefined;
    } else if (staleFrom !== undefined) {
      await deleteDays(site.id, staleFrom);
      if (current && current.through >= staleFrom) {
        current = coverageOf(site.timezone, addDays(day(staleFrom), -1));
        await setCoverage(site.id, current);
      }
    }
    const target = addDays(toLocal(now - ROLLUP_GRACE_MS, site.timezone), -1);
    let next: LocalDate;
    if (current) next = addDays(day(current.through), 1);
    else {
      const firstEvent = firstEventFromRow((await select<Record<string, unknown>>(deps.client, FIRST_EVENT_SQL, { site: site.id }))[0]);
      // Nothing stored yet: every closed day is covered, and empty.
      if (firstEvent === null) {
        await setCoverage(site.id, coverageOf(site.timezone, target));
        return 0;
      }
      next = toLocal(firstEvent, site.timezone);
      // Events only since today: the closed days before them are covered, and empty.
      if (formatDate(next) > formatDate(target)) await setCoverage(site.id, coverageOf(site.timezone, target));
    }
    let days = 0;
    // Rows already there past the coverage would be added to: they go first.
    if (formatDate(next) <= formatDate(target) && (await rowsFrom(site.id, formatDate(next)))) await deleteDays(site.id, formatDate(next));
    while (formatDate(next) <= formatDate(target)) {
      const chunkEnd = minDay(addDays(next, CHUNK_DAYS - 1), target);
      await rollDays(site, next, chunkEnd);
      // Another node may have pulled the coverage back meanwhile (a late row): that is noted like a write here.
      await reloadSite(site.id);
      // A write noted meanwhile into these days leaves them for the next round.
      const noted = stale.get(site.id);
      const through = noted !== undefined && noted <= formatDate(chunkEnd) ? addDays(day(noted), -1) : chunkEnd;
      if (formatDate(through) >= formatDate(next)) await setCoverage(site.id, coverageOf(site.timezone, through));
      days += dayNumber(chunkEnd) - dayNumber(next) + 1;
      if (noted !== undefined) break;
      next = addDays(chunkEnd, 1);
    }
    await refreshWindows(site);
    return days;
  };

  /**
   * Merges the site's windows again when the days they end on moved (a new day rolled up, days
   * recomputed). The windows written are published together once every table is done, unless
   * rows were noted into the site's days meanwhile; a table whose merge fails (over the memory of
   * one statement) is left out, its ranges read from day and week rows.
   */
  const refreshWindows = async (site: RollupSite) => {
    await reloadSite(site.id);
    const coverage = covered.get(site.id);
    if (!coverage || stale.has(site.id)) return;
    const spans = windowsEnding(day(coverage.through));
    const published = windows.get(site.id) ?? [];
    if (published.length > 0 && published.every((w) => spans.some((s) => s.slot === w.slot && s.days === w.days && s.last === w.last))) return;
    windows.delete(site.id);
    // Recorded before any row of the new computation is written: its rows replace the old one's as
    // the table merges, so a service restarted halfway must not read the old one.
    await persist(site.id, coverage);
    version = Math.max(version + 1, Date.now());
    const computed = version;
    const written: RollupWindow[] = [];
    const sliced = async (query: string, params: Record<string, unknown>, slices: number) => {
      for (let slice = 0; slice < slices; slice++) await deps.client.command({ query, query_params: { ...params, slices, slice }, ...merging });
    };
    const computation = { site: site.id, computed };
    const spanParts = spans.map((span) => spanParameters(span));
    // Every span's parameters at once, named by index, for the statement estimating them all.
    const sizeParams = Object.assign({ site: site.id }, ...spans.map((span, i) => spanParameters(span, `_${i}`).params));
    for (const table of ROLLUP_TABLES) {
      try {
        // One window per statement, each cut into the slices its visitor sets need (rollupWindows.ts sliceCount).
        const sizes = await select<{ span: number; hashes: string }>(deps.client, windowSizesSql(table, spans), sizeParams);
        for (const [i, { weeks, params }] of spanParts.entries()) {
          const hashes = Number(sizes.find((size) => Number(size.span) === i)?.hashes ?? 0);
          await sliced(windowInsert(table, weeks), { ...computation, ...params }, sliceCount(table, hashes, sliceBytes));
        }
        const [grouped] = await select<{ hashes: string }>(deps.client, groupedWindowSizeSql(table), computation);
        await sliced(groupedWindowInsert(table), computation, sliceCount(table, Number(grouped?.hashes ?? 0), sliceBytes));
        written.push(...spans.map((span) => ({ ...span, table: table.name, computed })));
      } catch (error) {
        deps.onError(error);
      }
      if (stale.has(site.id)) return;
    }
    await reloadSite(site.id);
    if (stale.has(site.id) || covered.get(site.id) !== coverage) return;
    windows.set(site.id, written);
    await persist(site.id, coverage);
  };

  let running: Promise<{ sites: number; days: number }> | null = null;
  let reloading: Promise<void> | null = null;
  const reloadOnce = () => {
    reloading ??= reload().finally(() => {
      reloading = null;
    });
    return reloading;
  };
  const timer = deps.reloadEveryMs === undefined ? undefined : setInterval(() => void reloadOnce().catch(deps.onError), deps.reloadEveryMs);
  timer?.unref();
  return {
    coverage(siteId) {
      const coverage = covered.get(siteId);
      return coverage && { ...coverage, windows: windows.get(siteId) ?? [] };
    },
    noteWrite(siteId, at) {
      const current = covered.get(siteId);
      // The first round over a site has no coverage to pull back yet, but must stop before this day.
      const timezone = current?.timezone ?? (rolling?.id === siteId ? rolling.timezone : null);
      if (timezone === null || (current && at > current.until)) return;
      const from = formatDate(toLocal(at, timezone));
      const earlier = stale.get(siteId);
      if (earlier === undefined || from < earlier) stale.set(siteId, from);
      if (!current) return;
      // Queries read these days raw from now on; the job deletes and recomputes them.
      windows.delete(siteId);
      const back = coverageOf(current.timezone, addDays(day(from), -1));
      covered.set(siteId, back);
      persist(siteId, back).catch(deps.onError);
    },
    runOnce(sites, now) {
      running ??= (async () => {
        await deps.flushWrites();
        // What other nodes recorded since (a previous holder's days, coverage pulled back by a late row).
        await reloadOnce();
        let days = 0;
        for (const site of sites) {
          try {
            days += await rollSite(site, now);
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
      if (timer) clearInterval(timer);
    },
  };
}

const minDay = (a: LocalDate, b: LocalDate) => (formatDate(a) <= formatDate(b) ? a : b);

async function select<T>(client: ClickHouseClient, query: string, params: Record<string, unknown> = {}): Promise<T[]> {
  const result = await client.query({ query, query_params: params, format: 'JSONEachRow' });
  return result.json<T>();
}
