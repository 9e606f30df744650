import { type Column, EVENT_COLUMN_TABLE } from '../stores/clickhouse/columns.js';
import { ROLLUP_TABLES, rollupTableName, rowDay } from '../stores/clickhouse/dailyRollups.js';

/**
 * The files of a site export: the ten daily tables in Plausible's CSV export format
 * (the same file names and columns as Plausible's export, one row per site-local
 * day, so a Plausible user can import the ZIP there), and every raw event.
 *
 * Each file is one SELECT over `events` or `sessions` with these parameters: `site` (UInt64),
 * `tz` (the site's time zone), `from` and `to` (Date, inclusive, site-local), `included` (the
 * classifications the site counts, '' always among them). The aggregated tables count what the
 * reports count; the raw file holds every stored event with its classification.
 *
 * Days whose raw events a retention deleted (docs/rollups.md, Retention) are read from the daily
 * roll-ups instead (`rolledUp`, same parameters, same columns): they keep no engagement or
 * properties, so those days' scroll depth, time on page, link URLs and paths are empty.
 */

export interface ExportFile {
  /** `imported_<table>` or `events`; the ZIP entry is `<base>_<from>_<to>.csv`. */
  base: string;
  /** The SELECT, without ORDER BY, LIMIT or FORMAT (paging adds them). */
  select: string;
  /** A total order over the rows, so pages never skip or repeat one. */
  orderBy: string;
  /** Extra settings of this file's reads. */
  settings?: string;
  /** The same rows read from the daily roll-ups (src/stores/clickhouse/dailyRollups.ts); none for raw events. */
  rolledUp?: string;
}

const EVENTS_IN_RANGE = `site_id = {site:UInt64}
  AND timestamp >= toDateTime({from:Date}, {tz:String}) AND timestamp < toDateTime({to:Date} + 1, {tz:String})`;
const REPORTED = 'classification IN {included:Array(String)}';
const DAY = 'toDate(timestamp, {tz:String})';

/** A roll-up's day rows of the range (its week rows merge the same days again), named as in ROLLUP_TABLES. */
const rolledDays = (name: string) => {
  const table = ROLLUP_TABLES.find((t) => t.name === name)!;
  const day = rowDay(table);
  return `${rollupTableName(table)} WHERE site_id = {site:UInt64} AND days = 1 AND ${day} >= {from:Date} AND ${day} <= {to:Date} AND ${REPORTED}`;
};

/**
 * Visit totals, each as SQL over raw visits (bucketed by their last activity, as Plausible's export
 * does; sign arithmetic collapses updates) and over a visit roll-up (whose sums are already signed).
 */
const VISIT_TOTAL_SQL = {
  visitors: { raw: 'uniq(user_id)', rolled: 'uniqMerge(visitors)' },
  visits: { raw: 'sum(sign)', rolled: 'sum(visits)' },
  visit_duration: { raw: 'sum(sign * duration)', rolled: 'sum(duration)' },
  bounces: { raw: 'sum(sign * is_bounce)', rolled: 'sum(bounces)' },
  pageviews: { raw: 'sum(sign * pageviews)', rolled: 'sum(pageviews)' },
};
type VisitTotal = keyof typeof VISIT_TOTAL_SQL;
const VISIT_TOTAL_ORDER: VisitTotal[] = ['visitors', 'visits', 'visit_duration', 'bounces', 'pageviews'];

/** The totals in a file's order; `visitsAs` is the file's name for visits (entrances, exits). */
const visitTotals = (form: 'raw' | 'rolled', order = VISIT_TOTAL_ORDER, visitsAs = 'visits') =>
  order.map((total) => `${VISIT_TOTAL_SQL[total][form]} AS ${total === 'visits' ? visitsAs : total}`).join(', ');
const VISIT_TOTALS = visitTotals('raw');
const ROLLED_VISIT_TOTALS = visitTotals('rolled');

/** A file of visit totals grouped by day and `dimensions` (raw expression, file column). */
function sessionTable(base: string, rollup: string, dimensions: [string, string][], totals: { order?: VisitTotal[]; visitsAs?: string } = {}): ExportFile {
  const names = dimensions.map(([, name]) => name);
  const columns = dimensions.map(([expr, name]) => `${expr} AS ${name}`).join(', ');
  const grouped = `GROUP BY date, ${names.join(', ')} HAVING ${totals.visitsAs ?? 'visits'} > 0`;
  return {
    base,
    select: `SELECT ${DAY} AS date, ${columns}, ${visitTotals('raw', totals.order, totals.visitsAs)} FROM sessions WHERE ${EVENTS_IN_RANGE} AND ${REPORTED} ${grouped}`,
    rolledUp: `SELECT last_day AS date, ${columns}, ${visitTotals('rolled', totals.order, totals.visitsAs)} FROM ${rolledDays(rollup)} ${grouped}`,
    orderBy: ['date', ...names].join(', '),
  };
}

const LOCATION = "replaceAll(toString(country_code), '\\0', '') AS country, subdivision1_code AS region, toUInt32(0) AS city";

/** Events Plausible reports with their link or path (its `imported_custom_events` columns). */
const LINK_EVENTS = "('Outbound Link: Click', 'Cloaked Link: Click', 'File Download')";
const PATH_EVENTS = "('404', 'WP Form Completions', 'Form: Submission')";

export const EXPORT_FILES: ExportFile[] = [
  {
    base: 'imported_visitors',
    select: `SELECT date, s.visitors AS visitors, e.pageviews AS pageviews, s.bounces AS bounces, s.visits AS visits, s.visit_duration AS visit_duration
      FROM (SELECT ${DAY} AS date, uniq(user_id) AS visitors, sum(sign * is_bounce) AS bounces, sum(sign) AS visits, sum(sign * duration) AS visit_duration
            FROM sessions WHERE ${EVENTS_IN_RANGE} AND ${REPORTED} GROUP BY date HAVING visits > 0) AS s
      FULL OUTER JOIN (SELECT ${DAY} AS date, countIf(name = 'pageview') AS pageviews
            FROM events WHERE ${EVENTS_IN_RANGE} AND ${REPORTED} GROUP BY date) AS e USING (date)`,
    rolledUp: `SELECT date, s.visitors AS visitors, e.pageviews AS pageviews, s.bounces AS bounces, s.visits AS visits, s.visit_duration AS visit_duration
      FROM (SELECT last_day AS date, ${ROLLED_VISIT_TOTALS} FROM ${rolledDays('visitors')} GROUP BY date HAVING visits > 0) AS s
      FULL OUTER JOIN (SELECT day AS date, sum(pageviews) AS pageviews FROM ${rolledDays('custom_events')} GROUP BY date) AS e USING (date)`,
    orderBy: 'date',
  },
  sessionTable(
    'imported_sources',
    'sources',
    [
      ['referrer_source', 'source'],
      ['referrer', 'referrer'],
      ['utm_source', 'utm_source'],
      ['utm_medium', 'utm_medium'],
      ['utm_campaign', 'utm_campaign'],
      ['utm_content', 'utm_content'],
      ['utm_term', 'utm_term'],
      // Plausible's export starts this file's counts with pageviews (its lib/plausible/exports.ex).
    ],
    { order: ['pageviews', 'visitors', 'visits', 'visit_duration', 'bounces'] },
  ),
  {
    base: 'imported_pages',
    // Scroll depth: each visit's deepest measured scroll on the page (255 = not measured); time on
    // page: each visit's engaged time there, in whole seconds.
    select: `SELECT date, p.hostname AS hostname, page, p.visits AS visits, p.visitors AS visitors, p.pageviews AS pageviews,
        e.total_scroll_depth AS total_scroll_depth, e.total_scroll_depth_visits AS total_scroll_depth_visits,
        e.total_time_on_page AS total_time_on_page, e.total_time_on_page_visits AS total_time_on_page_visits
      FROM (SELECT ${DAY} AS date, pathname AS page, any(hostname) AS hostname, uniq(session_id) AS visits, uniq(user_id) AS visitors, count() AS pageviews
            FROM events WHERE ${EVENTS_IN_RANGE} AND ${REPORTED} AND name = 'pageview' GROUP BY date, page) AS p
      LEFT JOIN (SELECT date, page, sumIf(depth, depth <= 100) AS total_scroll_depth, countIf(depth <= 100) AS total_scroll_depth_visits,
                        toUInt64(round(sum(engaged) / 1000)) AS total_time_on_page, countIf(engaged > 0) AS total_time_on_page_visits
            FROM (SELECT ${DAY} AS date, pathname AS page, session_id,
                         if(countIf(scroll_depth <= 100) > 0, maxIf(scroll_depth, scroll_depth <= 100), 255) AS depth, sum(engagement_time) AS engaged
                  FROM events WHERE ${EVENTS_IN_RANGE} AND ${REPORTED} AND name = 'engagement' GROUP BY date, page, session_id)
            GROUP BY date, page) AS e USING (date, page)`,
    rolledUp: `SELECT day AS date, any(hostname) AS hostname, pathname AS page, uniqMerge(visits) AS visits, uniqMerge(visitors) AS visitors,
        sum(pageviews) AS pageviews, toUInt64(0) AS total_scroll_depth, toUInt64(0) AS total_scroll_depth_visits,
        toUInt64(0) AS total_time_on_page, toUInt64(0) AS total_time_on_page_visits
      FROM ${rolledDays('pages')} AND name = 'pageview' GROUP BY date, page`,
    orderBy: 'date, page',
  },
  sessionTable('imported_entry_pages', 'entry_pages', [['entry_page', 'entry_page']], { visitsAs: 'entrances' }),
  sessionTable('imported_exit_pages', 'exit_pages', [['exit_page', 'exit_page']], {
    order: ['visitors', 'visit_duration', 'visits', 'bounces', 'pageviews'],
    visitsAs: 'exits',
  }),
  {
    base: 'imported_custom_events',
    // Engagement measurements are not custom events (Plausible's own export lists them; ours does not).
    select: `SELECT ${DAY} AS date, name, if(name IN ${LINK_EVENTS}, props['url'], '') AS link_url, if(name IN ${PATH_EVENTS}, props['path'], '') AS path,
        uniq(user_id) AS visitors, count() AS events
      FROM events WHERE ${EVENTS_IN_RANGE} AND ${REPORTED} AND name NOT IN ('pageview', 'engagement') GROUP BY date, name, link_url, path`,
    rolledUp: `SELECT day AS date, name, '' AS link_url, '' AS path, uniqMerge(visitors) AS visitors, sum(events) AS events
      FROM ${rolledDays('custom_events')} AND name NOT IN ('pageview', 'engagement') GROUP BY date, name`,
    orderBy: 'date, name, link_url, path',
  },
  {
    base: 'imported_locations',
    // Plausible's city column is a GeoNames id, which our geo source does not have: 0 (unknown)
    // keeps the file importable there; city names are in the raw events file.
    select: `SELECT ${DAY} AS date, ${LOCATION}, ${VISIT_TOTALS}
      FROM sessions WHERE ${EVENTS_IN_RANGE} AND ${REPORTED} AND country NOT IN ('', 'ZZ')
      GROUP BY date, country, region HAVING visits > 0`,
    rolledUp: `SELECT last_day AS date, ${LOCATION}, ${ROLLED_VISIT_TOTALS}
      FROM ${rolledDays('locations')} AND country NOT IN ('', 'ZZ') GROUP BY date, country, region HAVING visits > 0`,
    orderBy: 'date, country, region',
  },
  sessionTable('imported_devices', 'devices', [['screen_size', 'device']]),
  sessionTable('imported_browsers', 'browsers', [
    ['browser', 'browser'],
    ['browser_version', 'browser_version'],
  ]),
  sessionTable('imported_operating_systems', 'operating_systems', [
    ['operating_system', 'operating_system'],
    ['operating_system_version', 'operating_system_version'],
  ]),
];

/**
 * Every raw event as stored, in the file's order (documented in docs/export.md): the exported
 * columns of the event table (src/stores/clickhouse/columns.ts), each under its own name. There is
 * no address or user agent to export.
 */
export const RAW_EVENT_COLUMNS = Object.entries<Column>(EVENT_COLUMN_TABLE)
  .flatMap(([name, { exported }]) => (exported ? [{ name, ...exported }] : []))
  .sort((a, b) => a.at - b.at)
  .map(({ name, sql }) => (sql ? `${sql} AS ${name}` : name));

export const RAW_EVENTS_FILE: ExportFile = {
  base: 'events',
  select: `SELECT ${RAW_EVENT_COLUMNS.join(', ')} FROM events WHERE ${EVENTS_IN_RANGE}`,
  // Every column: rows equal in all of them are interchangeable, so paging stays exact.
  orderBy: RAW_EVENT_COLUMNS.map((column) => column.split(' AS ').pop()).join(', '),
  // Output names equal stored columns (timestamp, props…): WHERE and ORDER BY mean the columns.
  settings: 'prefer_column_name_to_alias = 1',
};
