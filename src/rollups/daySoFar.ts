import { SESSION_TIMEOUT_MS } from '../ingest/liveVisits/index.js';
import { DAY_SO_FAR_SLOTS, type DaySoFar } from '../stores/clickhouse/daySoFar.js';
import { eventsBefore, mergeDaySoFar } from '../stores/clickhouse/rollupStore.js';
import { earliestVisitStart } from '../stores/clickhouse/schema.js';
import { addDays, formatDate, toLocal } from '../time/localTime.js';
import { day } from './coverageBook.js';
import type { RollupRound, RollupSite } from './rollSite.js';

/**
 * A round's day so far of one site (src/stores/clickhouse/daySoFar.ts): today's rows up to a cut,
 * merged into window rows so a range ending today reads raw only the rows after the cut.
 */

/**
 * How far before the round's time the day so far is cut. This node's rows noted before the round
 * began are written by then (its flush), and a later row before the cut drops the day so far
 * (rollups.ts noteWrite); another node's rows wait in its write buffer for half a second, or for
 * a retry while the store fails them, so its rows of the last two minutes are left to be read raw.
 */
export const DAY_SO_FAR_MARGIN_MS = 2 * 60_000;

/**
 * Merges the site's day so far again, once its coverage reaches yesterday and its windows are
 * published (a range reads the day so far in the same read as its window), and publishes it unless
 * a row before its cut was noted meanwhile or the site's days changed.
 */
export async function refreshDaySoFar(round: RollupRound, site: RollupSite, now: number): Promise<void> {
  const { book } = round;
  const coverage = book.covered.get(site.id);
  if (!coverage || book.stale.has(site.id) || !round.settled() || (book.windows.get(site.id) ?? []).length === 0) return;
  // In the grace after midnight yesterday is not rolled up yet, and is read raw whole.
  const today = toLocal(now, site.timezone);
  if (formatDate(addDays(day(coverage.through), 1)) !== formatDate(today)) return;
  const cut = Math.floor((now - DAY_SO_FAR_MARGIN_MS) / 1000) * 1000;
  const needed = round.daySoFarEvents;
  if (needed === null || cut <= coverage.until || (await eventsBefore(round.client, site.id, coverage.until, cut)) < needed) return;
  const published = book.daySoFar.get(site.id);
  const rows: DaySoFar = {
    slot: DAY_SO_FAR_SLOTS.find((slot) => slot !== published?.rows.slot)!,
    computed: book.nextVersion(),
    cuts: { events: cut, sessions: cut - SESSION_TIMEOUT_MS },
  };
  await mergeDaySoFar(round.client, site, rows, coverage.until, earliestVisitStart(coverage.until), formatDate(today), round.merging);
  await book.reloadSite(site.id);
  const earliest = book.noted.get(site.id);
  if (book.stale.has(site.id) || book.covered.get(site.id) !== coverage || (earliest !== undefined && earliest < cut)) return;
  book.daySoFar.set(site.id, { through: coverage.through, rows });
  await book.persist(site.id, coverage);
}
