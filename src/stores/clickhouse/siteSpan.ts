/**
 * Where a site's "all time" begins: its first stored event. Read by the query engine (the `all`
 * range) and by export (the default first day), each on its own connection.
 */
export const FIRST_EVENT_SQL = 'SELECT toUnixTimestamp(min(timestamp)) AS first, count() AS n FROM events WHERE site_id = {site:UInt64}';

/** The first event's time in ms from FIRST_EVENT_SQL's row, or null when the site has none. */
export function firstEventFromRow(row: Record<string, unknown> | undefined): number | null {
  return Number(row?.n ?? 0) > 0 ? Number(row?.first) * 1000 : null;
}
