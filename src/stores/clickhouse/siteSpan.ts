import { startOfDay, toLocal } from '../../time/localTime.js';
import { ROLLUP_TABLES, rollupTableName } from './dailyRollups.js';

/**
 * A site's first or last event: the min or max time of its first or last day of events, that day
 * read in the table's key order, which starts with the site and the day (schema.ts), so only that
 * day's rows are read and not every event's time (the `all` range asks it for every panel, so it
 * is read the cheapest way; docs/benchmarks.md). No row for a site without events. The day is
 * a scalar subquery, computed before the statement and sent as a value, where an `IN` subquery
 * would be refused by a cluster's Distributed table.
 */
const EDGE_EVENT = (alias: string, edge: 'min' | 'max', direction: '' | ' DESC', bound = '') =>
  `SELECT ${edge}(timestamp) AS ${alias} FROM events WHERE site_id = {site:UInt64}${bound} AND toDate(timestamp) = (
     SELECT toDate(timestamp) AS day FROM events WHERE site_id = {site:UInt64}${bound} ORDER BY site_id${direction}, day${direction} LIMIT 1
   ) HAVING count() > 0`;

/**
 * A site's first event at or after `{from:UInt32}` (seconds; 0 for its first of all), as
 * `first` in seconds; no row when there is none. The roll-up job starts there, and skips the
 * empty days between a site's events (src/rollups/rollSite.ts catchUp).
 */
export const FIRST_EVENT_SQL = `SELECT toUnixTimestamp(first_at) AS first FROM (${EDGE_EVENT('first_at', 'min', '', " AND timestamp >= toDateTime({from:UInt32}, 'UTC')")})`;

/** The first event's time in ms from FIRST_EVENT_SQL's row, or null when the site has none. */
export function firstEventFromRow(row: Record<string, unknown> | undefined): number | null {
  return row === undefined ? null : Number(row.first) * 1000;
}

/** Every event but engagement is counted in it, by its local day. */
const DAY_TABLE = rollupTableName(ROLLUP_TABLES.find((table) => table.name === 'custom_events')!);

/**
 * The span of a site's data: its raw events, and the days its roll-ups hold, which are all that
 * is left of days whose raw events a retention deleted (docs/rollups.md, Retention). Parameters
 * `site` and `tz` (the zone the roll-ups were cut in, the site's); one row per source holding
 * any, the roll-ups' instants the starts of their first and last days. Read by the query engine
 * (the `all` range, the days an assistant may ask about) and by export (its default first day),
 * each on its own connection.
 */
export const DATA_SPAN_SQL = `
  SELECT 'raw' AS source, toUnixTimestamp(first_at) AS first, toUnixTimestamp(last_at) AS last
  FROM (${EDGE_EVENT('first_at', 'min', '')}) AS f CROSS JOIN (${EDGE_EVENT('last_at', 'max', ' DESC')}) AS l
  UNION ALL
  SELECT 'rolled' AS source, toUnixTimestamp(toDateTime(min(day), {tz:String})) AS first, toUnixTimestamp(toDateTime(max(day), {tz:String})) AS last
  FROM ${DAY_TABLE} WHERE site_id = {site:UInt64} AND days = 1 HAVING count() > 0`;

/**
 * DATA_SPAN_SQL's rows as instants in ms, or null when the site has no data. The first raw event
 * is the start unless the roll-ups hold an earlier day (raw events deleted), so a site that
 * deleted none starts exactly where its events do.
 */
export function dataSpanFromRows(rows: Record<string, unknown>[], tz: string): { first: number; last: number } | null {
  const span = (source: string) => {
    const row = rows.find((r) => r.source === source);
    return row ? { first: Number(row.first) * 1000, last: Number(row.last) * 1000 } : null;
  };
  const raw = span('raw');
  const rolled = span('rolled');
  if (raw === null || rolled === null) return raw ?? rolled;
  const earlierDay = rolled.first < startOfDay(toLocal(raw.first, tz), tz);
  return { first: earlierDay ? rolled.first : raw.first, last: Math.max(raw.last, rolled.last) };
}
