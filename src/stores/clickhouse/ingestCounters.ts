import type { EventStore } from './eventStore.js';

/** Outcome counts of a site per UTC hour in [from, to): `accepted`, each drop reason, each classification. */
export async function hourlyOutcomes(
  events: EventStore,
  siteId: number,
  range: { from: number; to: number },
): Promise<{ hour: number; reason: string; value: number }[]> {
  const result = await events.query.query({
    query: `SELECT toUnixTimestamp(hour) AS hour, reason, sum(value) AS value FROM ingest_counters
            WHERE site_id = {site:UInt64} AND hour >= toDateTime({from:UInt32}, 'UTC') AND hour < toDateTime({to:UInt32}, 'UTC')
            GROUP BY hour, reason ORDER BY hour, reason
            SETTINGS max_execution_time = 10`,
    query_params: { site: siteId, from: range.from / 1000, to: range.to / 1000 },
    format: 'JSONEachRow',
  });
  const rows = await result.json<{ hour: number; reason: string; value: string }>();
  return rows.map((row) => ({ hour: row.hour * 1000, reason: row.reason, value: Number(row.value) }));
}
