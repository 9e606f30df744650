import type { ClickHouseClient } from '@clickhouse/client';
import type { OldestAccepted } from '../ingest/historicalImport.js';
import { deleteRows } from '../stores/clickhouse/deleteRows.js';
import type { Coverage } from '../stores/clickhouse/rollupStore.js';
import { EVENTS, SESSIONS } from '../stores/clickhouse/schema.js';
import type { MetaDb } from '../stores/meta/database.js';
import { setRawEventsFrom } from '../stores/meta/sites.js';
import { addDays, dayNumber, formatDate, type LocalDate, parseIsoDate, startOfDay, toLocal } from '../time/localTime.js';
import type { RollupSite } from './rollSite.js';
import type { Rollups } from './rollups.js';

/**
 * Optional raw-event retention (docs/rollups.md, Retention): a site that keeps raw events for N
 * days loses, after each roll-up round, the raw events and visits of the local days both older
 * than today − N and already rolled up. Its `raw_events_from` mark is moved first, so a query
 * needing the raw rows of those days is refused (src/query/rollupReads/rawHorizon.ts) before they go, never
 * answered from what is left of them.
 */

export interface RetentionSite extends RollupSite {
  rawRetentionDays: number | null;
}

/**
 * The first local day whose raw events a site keeps after this round, or null when it keeps them
 * all: today − N, but never past the last day rolled up (a day not rolled up keeps its raw events).
 */
export function keptFromDay(site: RetentionSite, coverage: Coverage | undefined, now: number): LocalDate | null {
  // Without roll-ups cut in the site's zone (none yet, or a time-zone change being rebuilt) nothing may go.
  if (site.rawRetentionDays === null || coverage === undefined || coverage.timezone !== site.timezone) return null;
  const retained = addDays(toLocal(now, site.timezone), -site.rawRetentionDays);
  const rolled = addDays(parseIsoDate(coverage.through)!, 1);
  return dayNumber(retained) < dayNumber(rolled) ? retained : rolled;
}

/**
 * The oldest instant a raw-event import may still write for a site, with the sentence for an older
 * line; null when any is taken. Days whose raw events are deleted cannot take more (their roll-ups
 * cannot be computed again), and one day of margin past today − N keeps an import that runs over
 * midnight from writing into a day deleted meanwhile.
 */
export function oldestImportable(site: Omit<RetentionSite, 'id'> & { domain: string }, now: number): OldestAccepted | null {
  const retained = site.rawRetentionDays === null ? null : startOfDay(addDays(toLocal(now, site.timezone), 1 - site.rawRetentionDays), site.timezone);
  const at = Math.max(retained ?? -Infinity, site.rawEventsFrom ?? -Infinity);
  if (at === -Infinity) return null;
  const reason = `"timestamp" is before ${formatDate(toLocal(at, site.timezone))}: ${site.domain} keeps no raw events of older days (raw-event retention; their days are rolled up)`;
  return { at, reason };
}

/** The raw tables and how a row's last instant is read there (visits: their last activity; `start` lets the partitions prune). */
const RAW_TABLES = [
  { name: EVENTS.name, before: (from: string) => `timestamp < ${from}` },
  { name: SESSIONS.name, before: (from: string) => `start < ${from} AND timestamp < ${from}` },
];

/** Deletes what each site no longer keeps; returns the ids of the sites whose raw events were cut. */
export async function deleteExpiredRawEvents(
  deps: { db: MetaDb; client: ClickHouseClient; cluster: string | null; rollups: Pick<Rollups, 'coverage'> },
  sites: RetentionSite[],
  now: number,
): Promise<number[]> {
  const due: { id: number; from: number }[] = [];
  for (const site of sites) {
    const day = keptFromDay(site, deps.rollups.coverage(site.id), now);
    if (day === null) continue;
    const from = startOfDay(day, site.timezone);
    if (site.rawEventsFrom !== null && from <= site.rawEventsFrom) continue;
    // The mark moves only over events that exist: days that never had any lack nothing, and
    // queries keep answering them from raw rows.
    const older = await deps.client.query({
      query: "SELECT count() AS n FROM events WHERE site_id = {site:UInt64} AND timestamp < toDateTime({from:UInt32}, 'UTC')",
      query_params: { site: site.id, from: Math.floor(from / 1000) },
      format: 'JSONEachRow',
    });
    if (Number((await older.json<{ n: string }>())[0]?.n ?? 0) === 0) continue;
    if (await setRawEventsFrom(deps.db, site.id, site.timezone, from)) due.push({ id: site.id, from });
  }
  if (due.length === 0) return [];
  // One mutation per table for every site at once: each rewrites the parts holding rows it deletes.
  const params: Record<string, number> = {};
  due.forEach((site, i) => Object.assign(params, { [`site${i}`]: site.id, [`from${i}`]: Math.floor(site.from / 1000) }));
  const deletes = RAW_TABLES.map((table) => ({
    table: table.name,
    condition: due.map((_, i) => `(site_id = {site${i}:UInt64} AND ${table.before(`toDateTime({from${i}:UInt32}, 'UTC')`)})`).join(' OR '),
  }));
  await deleteRows(deps.client, deps.cluster, deletes, params);
  return due.map((site) => site.id);
}
