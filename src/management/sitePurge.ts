import { DAILY_ROLLUPS, ROLLUP_COVERAGE } from '../stores/clickhouse/dailyRollups.js';
import { deleteRows } from '../stores/clickhouse/deleteRows.js';
import type { EventStore } from '../stores/clickhouse/eventStore.js';
import { WINDOW_ROLLUPS } from '../stores/clickhouse/rollupWindows.js';
import { EVENTS, INGEST_COUNTERS, ROLLUPS, SESSIONS } from '../stores/clickhouse/schema.js';
import type { MetaDb } from '../stores/meta/database.js';
import { markSitePurged, sitesAwaitingPurge } from '../stores/meta/sites.js';

/** Every analytics table keyed by site: a purge leaves none of the site's rows in any of them. */
export const SITE_DATA_TABLES: readonly string[] = [EVENTS, SESSIONS, INGEST_COUNTERS, ...ROLLUPS, ...DAILY_ROLLUPS, ...WINDOW_ROLLUPS, ROLLUP_COVERAGE].map(
  (def) => def.name,
);

/**
 * The background half of deleting a site: removes a soft-deleted site's rows from every
 * analytics table, then records that it is done. The site's metadata row stays, so ingestion
 * keeps answering `site_deleted` for its domain. Returns the ids of the sites purged.
 */
export async function purgeDeletedSites(db: MetaDb, events: EventStore, now: number): Promise<number[]> {
  const purged: number[] = [];
  for (const siteId of await sitesAwaitingPurge(db)) {
    const deletes = SITE_DATA_TABLES.map((table) => ({ table, condition: 'site_id = {site_id:UInt64}' }));
    await deleteRows(events.jobs, events.cluster, deletes, { site_id: siteId });
    await markSitePurged(db, siteId, now);
    purged.push(siteId);
  }
  return purged;
}
