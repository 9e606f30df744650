import type { EventStore } from './eventStore.js';

/** How far back the settings' suggestions look: recent enough to be cheap, long enough to hold a site's events. */
const LOOKBACK_SECONDS = 90 * 24 * 3600;
const MOST = 100;

/**
 * The custom event names and property keys a site received lately, most frequent first (at most
 * a hundred each). Pageviews and engagement events are the tracker's own, not custom events. Both
 * read only the site's recent days, the start of the table's key (schema.ts).
 */
const RECEIVED_SQL = `
  SELECT 'event' AS kind, value, n FROM (
    SELECT name AS value, count() AS n FROM events
    WHERE site_id = {site:UInt64} AND timestamp >= toDateTime({since:UInt32}, 'UTC') AND name NOT IN ('pageview', 'engagement')
    GROUP BY value ORDER BY n DESC, value LIMIT ${MOST}
  )
  UNION ALL
  SELECT 'property' AS kind, value, n FROM (
    SELECT key AS value, count() AS n FROM events ARRAY JOIN mapKeys(props) AS key
    WHERE site_id = {site:UInt64} AND timestamp >= toDateTime({since:UInt32}, 'UTC')
    GROUP BY value ORDER BY n DESC, value LIMIT ${MOST}
  )`;

export async function receivedNames(events: EventStore, siteId: number, now: number): Promise<{ eventNames: string[]; propertyKeys: string[] }> {
  const since = Math.max(0, Math.floor(now / 1000) - LOOKBACK_SECONDS);
  const result = await events.query.query({ query: RECEIVED_SQL, query_params: { site: siteId, since }, format: 'JSONEachRow' });
  // UNION ALL keeps no order between its parts' rows: they are sorted here.
  const rows = (await result.json<{ kind: 'event' | 'property'; value: string; n: string }>()).sort(
    (a, b) => Number(b.n) - Number(a.n) || a.value.localeCompare(b.value),
  );
  const of = (kind: string) => rows.filter((row) => row.kind === kind).map((row) => row.value);
  return { eventNames: of('event'), propertyKeys: of('property') };
}
