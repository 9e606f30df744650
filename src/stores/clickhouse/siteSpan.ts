import { startOfDay, toLocal } from '../../time/localTime.js';
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
 * `site` and `tz` (the zone the roll-ups were cut in, the site's); one row per source holding
 * any, the roll-ups' instants the starts of their first and last days. Read by the query engine
 * (the `all` range, the days an assistant may ask about) and by export (its default first day),
 * each on its own connection.
 */
export const DATA_SPAN_SQL = `
  SELECT 'raw' AS source, toUnixTimestamp(min(timestamp)) AS first, toUnixTimestamp(max(timestamp)) AS last
  FROM events WHERE site_id = {site:UInt64} HAVING count() > 0
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
