import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import { BLOCK_KINDS, ROLLUP_TABLES } from '../stores/clickhouse/dailyRollups.js';
import {
  deleteRollupDays,
  firstEvent,
  firstRolledDay,
  hasRollupRowsFrom,
  insertRollupDays,
  mergeWindow,
  regroupedWindowSize,
  siteBounds,
  windowSizes,
} from '../stores/clickhouse/rollupStore.js';
import {
  mondaysHeld,
  type RollupWindow,
  sliceCount,
  WINDOW_DAYS,
  type WindowRange,
  type WindowRead,
  windowKinds,
  windowRead,
  windowsEnding,
  windowsFitOneStatement,
} from '../stores/clickhouse/rollupWindows.js';
import { addDays, dayNumber, earlierDay, formatDate, type LocalDate, laterDay, startOfDay, toLocal } from '../time/localTime.js';
import { type CoverageBook, type Covered, coverageOf, day } from './coverageBook.js';

/**
 * One round of the roll-up job over one site (src/rollups/rollups.ts describes the job): days
 * to recompute deleted, closed days rolled up in chunks, and the site's windows merged again.
 */

/** A local day is rolled up once closed: GRACE after its end, when no visit can still move out of it. */
export const ROLLUP_GRACE_MS = 2 * 3_600_000;

/** Days per INSERT … SELECT when catching up, so one statement's memory stays bounded. */
const CHUNK_DAYS = 31;

export interface RollupSite {
  id: number;
  timezone: string;
  /** Where the site's raw events begin once older ones were deleted (src/rollups/retention.ts); null: all kept. */
  rawEventsFrom: number | null;
}

/** What a round works with: the store, this node's coverage, and the settings of its statements. */
export interface RollupRound {
  client: ClickHouseClient;
  cluster: string | null;
  book: CoverageBook;
  /** Settings of the inserts whose rows the next statements merge from. */
  inPlace: ClickHouseSettings;
  /** Settings of a window merge: its memory, and where it spills to disk. */
  merging: { clickhouse_settings: ClickHouseSettings };
  /** The bytes of visitor sets one merge statement is cut to hold (rollupWindows.ts sliceCount). */
  sliceBytes: number;
  /** The events of today a site needs before its day so far is merged (daySoFar.ts); null: none is. */
  daySoFarEvents: number | null;
  /** Whether the round is to end at its next step: the service is closing (Rollups.stop). */
  halted(): boolean;
  /** Whether every row noted before the round began is in the store. */
  settled(): boolean;
  onError(error: unknown): void;
}

/** Rolls up every closed day of a site not rolled up yet; the number of days rolled up. */
export async function rollSite(round: RollupRound, site: RollupSite, now: number): Promise<number> {
  const { book } = round;
  const current = await settleStaleDays(round, site);
  const target = addDays(toLocal(now - ROLLUP_GRACE_MS, site.timezone), -1);
  let next: LocalDate;
  if (current) next = addDays(day(current.through), 1);
  else {
    const first = await firstEvent(round.client, site.id);
    // Nothing stored yet: every closed day is covered, and empty.
    if (first === null) {
      await book.setCoverage(site.id, coverageOf(site.timezone, target));
      return 0;
    }
    next = toLocal(first, site.timezone);
    // Events only since today: the closed days before them are covered, and empty.
    if (formatDate(next) > formatDate(target)) await book.setCoverage(site.id, coverageOf(site.timezone, target));
  }
  // Rows already there past the coverage would be added to: they go first.
  if (formatDate(next) <= formatDate(target) && (await hasRollupRowsFrom(round.client, site.id, formatDate(next)))) {
    await deleteDays(round, site.id, formatDate(next));
  }
  const days = await catchUp(round, site, next, target);
  await refreshWindows(round, site, now);
  return days;
}

/**
 * Deletes what must be computed again: all of a site's roll-ups after a time-zone change, else
 * those from its first stale day, pulling its coverage back before them. The coverage left.
 */
async function settleStaleDays(round: RollupRound, site: RollupSite): Promise<Covered | undefined> {
  const { book } = round;
  const current = book.covered.get(site.id);
  // Days whose raw events are deleted cannot be computed again: a late row there (an import
  // racing the deletion) leaves their roll-ups as they are, and is deleted with the next days.
  const kept = site.rawEventsFrom === null ? undefined : formatDate(toLocal(site.rawEventsFrom, site.timezone));
  const noted = book.stale.get(site.id);
  const staleFrom = noted !== undefined && kept !== undefined && noted < kept ? kept : noted;
  book.stale.delete(site.id);
  if (current && current.timezone !== site.timezone) {
    await book.setCoverage(site.id, undefined);
    await deleteDays(round, site.id, null);
    return undefined;
  }
  if (staleFrom === undefined) return current;
  await deleteDays(round, site.id, staleFrom);
  if (!current || current.through < staleFrom) return current;
  const back = coverageOf(site.timezone, addDays(day(staleFrom), -1), current.runsFrom);
  await book.setCoverage(site.id, back);
  return back;
}

/** The longest block (src/stores/clickhouse/dailyRollups.ts BLOCK_KINDS): a block ending this many days after a day cannot hold it. */
const LONGEST_BLOCK_DAYS = Math.max(...BLOCK_KINDS.map((kind) => kind.days));

/**
 * Rolls up the days from `from` to `target` in chunks, recording coverage after each; the number
 * of days covered. The empty days between a site's events (a stray event years back, an import
 * with gaps) are covered without a statement over them, once they are far enough from the last
 * events that no block ending on them holds one. A round being stopped (the service closing) ends
 * after the chunk in hand.
 */
async function catchUp(round: RollupRound, site: RollupSite, from: LocalDate, target: LocalDate): Promise<number> {
  const { book } = round;
  let next = from;
  let days = 0;
  // The last day that may hold events rolled up: the days before `from` may.
  let filled = addDays(from, -1);
  while (formatDate(next) <= formatDate(target) && !round.halted()) {
    const event = await firstEvent(round.client, site.id, startOfDay(next, site.timezone));
    const eventDay = event === null ? addDays(target, 1) : laterDay(next, toLocal(event, site.timezone));
    const skips = dayNumber(next) >= dayNumber(filled) + LONGEST_BLOCK_DAYS;
    const start = skips ? eventDay : next;
    const chunkEnd = earlierDay(addDays(start, CHUNK_DAYS - 1), target);
    if (formatDate(start) <= formatDate(target)) await insertRollupDays(round.client, site, start, chunkEnd, round.inPlace, round.sliceBytes);
    if (dayNumber(eventDay) <= dayNumber(chunkEnd)) filled = chunkEnd;
    // Another node may have pulled the coverage back meanwhile (a late row): that is noted like a write here.
    await book.reloadSite(site.id);
    // A write noted meanwhile into these days leaves them for the next round.
    const noted = book.stale.get(site.id);
    const through = noted !== undefined && noted <= formatDate(chunkEnd) ? addDays(day(noted), -1) : chunkEnd;
    if (formatDate(through) >= formatDate(next)) await book.setCoverage(site.id, coverageOf(site.timezone, through, book.covered.get(site.id)?.runsFrom));
    days += dayNumber(chunkEnd) - dayNumber(next) + 1;
    if (noted !== undefined) break;
    next = addDays(chunkEnd, 1);
  }
  return days;
}

/** Deletes a site's roll-ups from `from` on, with the week holding it (all of them without `from`), and its windows with them. */
async function deleteDays(round: RollupRound, siteId: number, from: string | null): Promise<void> {
  round.book.windows.delete(siteId);
  round.book.daySoFar.delete(siteId);
  await deleteRollupDays(round.client, round.cluster, siteId, from);
}

/**
 * Merges the site's windows again when their days moved: a new day rolled up, days recomputed, or
 * midnight passed with yesterday not rolled up yet (the presets then start a day later and read
 * yesterday raw: rollupWindows.ts windowsEnding). The windows written are published together once
 * every table is done, unless rows were noted into the site's days meanwhile; a table whose merge
 * fails (over the memory of one statement) is left out, its ranges read from day and week rows.
 */
async function refreshWindows(round: RollupRound, site: RollupSite, now: number): Promise<void> {
  const { book } = round;
  await book.reloadSite(site.id);
  const coverage = book.covered.get(site.id);
  if (!coverage || book.stale.has(site.id)) return;
  const through = day(coverage.through);
  const today = laterDay(toLocal(now, site.timezone), addDays(through, 1));
  const published = book.windows.get(site.id) ?? [];
  const same = (s: WindowRange, w: WindowRange) => s.slot === w.slot && s.days === w.days && s.first === w.first && s.last === w.last;
  // Published windows seen from the same day and last day are current: the Mondays a site's days
  // reach change only with its first day, and a row noted before it drops the windows (rollups.ts).
  const current = windowsEnding(through, { lengths: WINDOW_DAYS, presets: true, mondays: mondaysHeld(published) }, today);
  if (published.length > 0 && current.every((s) => published.some((w) => same(s, w)))) return;
  // No stored row is older than the site's first rolled-up day: the open `all` is read from it.
  const from = (await firstRolledDay(round.client, site.id)) ?? addDays(through, 1);
  const ranges = windowsEnding(through, windowKinds(today, from), today);
  book.windows.delete(site.id);
  // Recorded before any row of the new computation is written: its rows replace the old one's as
  // the table merges, so a service restarted halfway must not read the old one.
  await book.persist(site.id, coverage);
  const computed = book.nextVersion();
  const written: RollupWindow[] = [];
  const computation = { site: site.id, computed };
  const bounds = await siteBounds(round.client, site.id);
  for (const table of ROLLUP_TABLES) {
    // Unpublished: the next round merges them all again.
    if (round.halted()) return;
    try {
      const reads = ranges.map((range, i) => windowRead(table, range, i, from, day(coverage.runsFrom)));
      const params = (some: readonly WindowRead[]) => Object.assign({ ...computation }, ...some.map((read) => read.params));
      if (windowsFitOneStatement(table, bounds.get(table.name) ?? 0, ranges.length, round.sliceBytes)) {
        await mergeWindow(round.client, table, { reads }, params(reads), 1, round.merging);
        await mergeWindow(round.client, table, 'regrouped', computation, 1, round.merging);
      } else {
        // One window per statement, each cut into the slices its visitor sets need (rollupWindows.ts sliceCount).
        const sizes = await windowSizes(round.client, table, reads, params(reads));
        for (const read of reads) {
          const hashes = Number(sizes.find((size) => Number(size.window_read) === read.index)?.hashes ?? 0);
          const slices = sliceCount(table, hashes, round.sliceBytes);
          await mergeWindow(round.client, table, { reads: [read] }, params([read]), slices, round.merging);
        }
        const regrouped = await regroupedWindowSize(round.client, table, computation);
        await mergeWindow(round.client, table, 'regrouped', computation, sliceCount(table, regrouped, round.sliceBytes), round.merging);
      }
      written.push(...ranges.map((range) => ({ ...range, table: table.name, computed })));
    } catch (error) {
      round.onError(error);
    }
    if (book.stale.has(site.id)) return;
  }
  await book.reloadSite(site.id);
  if (book.stale.has(site.id) || book.covered.get(site.id) !== coverage) return;
  book.windows.set(site.id, written);
  await book.persist(site.id, coverage);
}
