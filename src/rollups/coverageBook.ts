import type { ClickHouseClient } from '@clickhouse/client';
import type { Clock } from '../clock.js';
import { ALL_RUNS } from '../stores/clickhouse/dailyRollups.js';
import type { DaySoFar } from '../stores/clickhouse/daySoFar.js';
import { type Coverage, type CoverageRow, latestComputation, readCoverage, writeCoverage } from '../stores/clickhouse/rollupStore.js';
import {
  FIRST_WINDOW_DAYS,
  isPresetWindow,
  lengthsHeld,
  MONDAY_WEEKS,
  mondaysHeld,
  type RollupWindow,
  type WindowKinds,
  windowsEnding,
  windowsSeenFrom,
} from '../stores/clickhouse/rollupWindows.js';
import { addDays, endOfDay, formatDate, type LocalDate, parseIsoDate } from '../time/localTime.js';

/** A coverage without the windows published with it. */
export type Covered = Omit<Coverage, 'windows'>;

export const day = (text: string): LocalDate => parseIsoDate(text)!;

/**
 * Named among a coverage row's window tables when its computation holds the presets' windows
 * (rollupWindows.ts PRESET_WINDOW_SLOTS), or those from the latest Mondays (`+mondays:3`: three;
 * a bare `+mondays`, written before the count was, all MONDAY_WEEKS): a row written before a kind
 * was merged does not name it, and its computation is read as the windows it has until the job
 * merges them all again.
 */
const PRESETS = '+presets';
const MONDAYS = '+mondays';
/** The window lengths held (`+days:7,28,30,91`); a row without it holds FIRST_WINDOW_DAYS. */
const LENGTHS = '+days:';
/**
 * Names the day so far published with the coverage (src/stores/clickhouse/daySoFar.ts):
 * `+today:<slot>:<computed>:<events cut>:<visits cut>`, the cuts in ms.
 */
const todayMark = ({ slot, computed, cuts }: DaySoFar) => `+today:${slot}:${computed}:${cuts.events}:${cuts.sessions}`;
const todayNamed = (tables: readonly string[]): DaySoFar | undefined => {
  const named = tables.map((table) => /^\+today:(\d+):(\d+):(\d+):(\d+)$/.exec(table)).find((match) => match !== null);
  if (!named) return undefined;
  return { slot: Number(named[1]), computed: Number(named[2]), cuts: { events: Number(named[3]), sessions: Number(named[4]) } };
};
const isMark = (table: string) => table.startsWith('+');
const kindsNamed = (tables: readonly string[]): WindowKinds => {
  const mondays = tables.find((table) => table === MONDAYS || table.startsWith(`${MONDAYS}:`));
  const lengths = tables.find((table) => table.startsWith(LENGTHS));
  return {
    lengths: lengths === undefined ? FIRST_WINDOW_DAYS : lengths.slice(LENGTHS.length).split(',').map(Number),
    presets: tables.includes(PRESETS),
    mondays: mondays === undefined ? 0 : mondays === MONDAYS ? MONDAY_WEEKS : Number(mondays.slice(MONDAYS.length + 1)),
  };
};
/**
 * A site's coverage through a day; `runsFrom` as the coverage it follows had it (its runs stay
 * stored), or every run for a site rolled up from its first day.
 */
export const coverageOf = (timezone: string, through: LocalDate, runsFrom = ALL_RUNS): Covered => ({
  timezone,
  through: formatDate(through),
  until: endOfDay(through, timezone),
  runsFrom,
});

/**
 * This node's copy of every site's coverage (src/rollups/rollups.ts): what it may tell queries,
 * the days it must recompute, and the version of each site's row it last wrote or read, against
 * the `rollup_coverage` rows every node writes.
 */
export interface CoverageBook {
  readonly covered: Map<number, Covered>;
  /** Per site, the windows published for queries; a site's are dropped whenever its days change. */
  readonly windows: Map<number, RollupWindow[]>;
  /**
   * Per site, the day so far published for queries: the rows of the day after `through`, the
   * coverage's last day when it was merged; read only while the coverage still ends there.
   */
  readonly daySoFar: Map<number, { through: string; rows: DaySoFar }>;
  /** Per site, the earliest event time noted since the round began (rollups.ts noteWrite): a day so far cut after it lacks the event. */
  readonly noted: Map<number, number>;
  /** Per site, the first day whose roll-ups must be recomputed. */
  readonly stale: Map<number, string>;
  /** Notes that a site's roll-ups from `from` on must be recomputed (the earliest such day is kept). */
  markStale(siteId: number, from: string): void;
  /**
   * Reads every site's row again, taking those other nodes wrote since. The first read, as the
   * service starts, leaves out the days so far: rows accepted before a crash and written back
   * from the journal since (src/ingest/journalReplay.ts) may be missing from them.
   */
  reload(): Promise<void>;
  /** One site's row, read again just before this node records its coverage over what another may have written. */
  reloadSite(siteId: number): Promise<void>;
  /** Records a site's coverage and the windows published with it, under a new version. */
  persist(siteId: number, coverage: Covered | undefined): Promise<void>;
  /** Takes a coverage (none: nothing covered) and records it. */
  setCoverage(siteId: number, coverage: Covered | undefined): Promise<void>;
  /** A version above every one written or read: what a new computation of window rows is numbered. */
  nextVersion(): number;
}

export async function openCoverageBook(client: ClickHouseClient, clock: Clock): Promise<CoverageBook> {
  const covered = new Map<number, Covered>();
  const windows = new Map<number, RollupWindow[]>();
  const daySoFar = new Map<number, { through: string; rows: DaySoFar }>();
  const noted = new Map<number, number>();
  let started = false;
  const stale = new Map<number, string>();
  // Above any computation of window rows a previous process stored: a window's rows are replaced by higher ones.
  let version = Math.max(clock.now(), (await latestComputation(client)) + 1);
  /** Per site, the version of the coverage row this node last wrote or read: a higher one in the store is another node's. */
  const known = new Map<number, number>();

  const markStale = (siteId: number, from: string) => {
    const earlier = stale.get(siteId);
    if (earlier === undefined || from < earlier) stale.set(siteId, from);
  };

  /** Takes a coverage row newer than what this node knows of the site. */
  const adopt = (row: CoverageRow) => {
    const siteId = Number(row.site_id);
    const rowVersion = Number(row.latest);
    if (known.has(siteId) && rowVersion <= (known.get(siteId) as number)) return;
    known.set(siteId, rowVersion);
    version = Math.max(version, rowVersion);
    const before = covered.get(siteId);
    windows.delete(siteId);
    daySoFar.delete(siteId);
    if (row.timezone === '') {
      covered.delete(siteId);
      return;
    }
    covered.set(siteId, coverageOf(row.timezone, day(row.through), row.runs_from));
    const today = todayNamed(row.tables);
    if (today && started) daySoFar.set(siteId, { through: row.through, rows: today });
    // Pulled back by another node (a late row there): the days after it are recomputed by the holder of the round.
    if (before && before.timezone === row.timezone && row.through < before.through) markStale(siteId, formatDate(addDays(day(row.through), 1)));
    // Windows recorded before the coverage moved end on another day: the job merges them again.
    // They were seen from the day after `windows_through` (a day later in the grace after midnight).
    const through = day(row.through);
    if (Number(row.computed) === 0 || (row.windows_through !== row.through && row.windows_through !== formatDate(addDays(through, 1)))) return;
    const ranges = windowsEnding(through, kindsNamed(row.tables), addDays(day(row.windows_through), 1));
    windows.set(
      siteId,
      row.tables.filter((table) => !isMark(table)).flatMap((table) => ranges.map((range) => ({ ...range, table, computed: Number(row.computed) }))),
    );
  };

  const nextVersion = () => {
    version = Math.max(version + 1, clock.now());
    return version;
  };

  const persist = async (siteId: number, coverage: Covered | undefined) => {
    known.set(siteId, nextVersion());
    const published = windows.get(siteId) ?? [];
    const recorded = published.find((w) => w.slot === 0);
    const seenFrom = windowsSeenFrom(published);
    const today = daySoFar.get(siteId);
    await writeCoverage(client, {
      site_id: siteId,
      timezone: coverage?.timezone ?? '',
      through: coverage?.through ?? '1970-01-01',
      runs_from: coverage?.runsFrom ?? ALL_RUNS,
      version,
      windows_computed: recorded?.computed ?? 0,
      // The last day of the presets the windows were merged for: the coverage's last day when they
      // were merged, or the day after it when merged in the grace after midnight (rollSite.ts).
      windows_through: seenFrom ? formatDate(addDays(seenFrom, -1)) : '1970-01-01',
      window_tables: [
        ...new Set(published.map((w) => w.table)),
        ...(lengthsHeld(published).length > 0 ? [`${LENGTHS}${lengthsHeld(published).join(',')}`] : []),
        ...(published.some(isPresetWindow) ? [PRESETS] : []),
        ...(mondaysHeld(published) > 0 ? [`${MONDAYS}:${mondaysHeld(published)}`] : []),
        ...(today && today.through === coverage?.through ? [todayMark(today.rows)] : []),
      ],
    });
  };

  return {
    covered,
    windows,
    daySoFar,
    noted,
    stale,
    markStale,
    async reload() {
      for (const row of await readCoverage(client)) adopt(row);
      started = true;
    },
    async reloadSite(siteId) {
      for (const row of await readCoverage(client, siteId)) adopt(row);
    },
    persist,
    async setCoverage(siteId, coverage) {
      if (coverage) covered.set(siteId, coverage);
      else covered.delete(siteId);
      await persist(siteId, coverage);
    },
    nextVersion,
  };
}
