import { ROLLUP_TABLES, rollupTableName } from './dailyRollups.js';

/** Where a site's raw events begin: the roll-up job rolls up from there (src/rollups/rollups.ts). */
export const FIRST_EVENT_SQL = 'SELECT toUnixTimestamp(min(timestamp)) AS first, count() AS n FROM events WHERE site_id = {site:UInt64}';

/** The first event's time in ms from FIRST_EVENT_SQL's row, or null when the site has none. */
export function firstEventFromRow(row: Record<string, unknown> | undefined): number | null {
  return Number(row?.n ?? 0) > 0 ? Number(row?.first) * 1000 : null;
}

/** Every event but engagement is counted in it, by its local day. */
const DAY_TABLE = rollupTableName(ROLLUP_TABLES.find((table) => table.name === 'custom_events')!);

/**
 * The span of a site's data: its raw events, and the days its roll-ups hold, which are all that
 * is left of days whose raw events a retention deleted (docs/rollups.md, Retention). Parameters
 * `site` and `tz` (the zone the roll-ups were cut in, the site's); the roll-ups' instants are the
 * starts of their first and last days. Read by the query engine (the `all` range, the days an
 * assistant may ask about) and by export (its default first day), each on its own connection.
 */
export const DATA_SPAN_SQL = `SELECT min(first) AS first, max(last) AS last, count() AS n FROM (
  SELECT toUnixTimestamp(min(timestamp)) AS first, toUnixTimestamp(max(timestamp)) AS last FROM events WHERE site_id = {site:UInt64} HAVING count() > 0
  UNION ALL
  SELECT toUnixTimestamp(toDateTime(min(day), {tz:String})) AS first, toUnixTimestamp(toDateTime(max(day), {tz:String})) AS last
  FROM ${DAY_TABLE} WHERE site_id = {site:UInt64} AND days = 1 HAVING count() > 0
)`;

/** DATA_SPAN_SQL's row as instants in ms, or null when the site has no data. */
export function dataSpanFromRow(row: Record<string, unknown> | undefined): { first: number; last: number } | null {
  return Number(row?.n ?? 0) > 0 ? { first: Number(row?.first) * 1000, last: Number(row?.last) * 1000 } : null;
}
