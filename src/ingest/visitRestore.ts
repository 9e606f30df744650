import type { IngestionStore } from '../stores/clickhouse/ingestionStore.js';
import type { SessionTracker } from './liveVisits/index.js';
import { type LiveVisit, LONGEST_VISIT_MS, SESSION_TIMEOUT_MS, visitFromRow } from './liveVisits/index.js';

/** Rows per read at start: a page at a time, so a million live visits never sit in memory as objects at once. */
const RESTORE_PAGE = 20_000;

const asEpoch = (clickhouseTime: string) => Date.parse(`${clickhouseTime.replace(' ', 'T')}Z`);

/**
 * Visits still live at `now` (active within the last 30 minutes) in their latest state, so that
 * after a restart a returning visitor continues their visit instead of starting a second one.
 * Read oldest activity first: past the tracker's cap the oldest leave memory again as evicted
 * visits, to be read back (readBackVisits) if their visitor returns.
 */
export async function restoreLiveVisits(store: Pick<IngestionStore, 'liveVisitsPage'>, tracker: Pick<SessionTracker, 'restore'>, now: number): Promise<number> {
  let restored = 0;
  let after = { timestamp: 0, sessionId: '0' };
  for (;;) {
    const rows = await store.liveVisitsPage({ startedSince: now - LONGEST_VISIT_MS, activeSince: now - SESSION_TIMEOUT_MS, after, limit: RESTORE_PAGE });
    for (const row of rows) tracker.restore(row, asEpoch(row.start), asEpoch(row.timestamp));
    restored += rows.length;
    const last = rows.at(-1);
    if (!last || rows.length < RESTORE_PAGE) return restored;
    after = { timestamp: asEpoch(last.timestamp), sessionId: last.session_id };
  }
}

/**
 * The latest stored visit of each of these visitors, for visits that left memory
 * (src/ingest/liveVisits/tracker.ts), asked for together in one read; its last activity counts
 * its last engagement, which keeps a visit alive without writing a visit row.
 */
export async function readBackVisits(
  store: Pick<IngestionStore, 'latestVisits'>,
  visitors: ReadonlyArray<{ siteId: number; userIds: string[] }>,
  sinceMs: number,
): Promise<LiveVisit[]> {
  const visits = await store.latestVisits(visitors, sinceMs);
  return visits.map(({ row, lastEngagement }) => visitFromRow(row, lastEngagement));
}
