import { columnDefinition, createdColumns, EVENT_COLUMN_TABLE, SESSION_COLUMN_TABLE } from './columns.js';
import type { TableDef } from './ddl.js';

/**
 * The analytics schema: `events` and `sessions` (their columns in columns.ts), the ingestion
 * counters, and the `rollup_*` tables of imported data, named and shaped as the reference
 * product's imported_* tables.
 */

export const EVENTS: TableDef = {
  name: 'events',
  columns: createdColumns(EVENT_COLUMN_TABLE),
  engine: 'MergeTree',
  partitionBy: 'toYYYYMM(timestamp)',
  orderBy: '(site_id, toDate(timestamp), name, user_id, timestamp)',
  sampleBy: 'user_id',
  shardingKey: 'user_id',
};

/** The idempotency key, added to `events` by migration 2 (columns.ts). */
export const EVENTS_IDEMPOTENCY_KEY = columnDefinition(EVENT_COLUMN_TABLE, 'idempotency_key');

/**
 * Columns stored as `LowCardinality(String)` since migration 4, by table. Page paths, hostnames
 * and sources hold few distinct values per part on most sites, and reports filter and group by
 * them on every dashboard: a filter on one page compares each part's dictionary once instead of
 * every row (5× faster at 10 M events; regular expressions 12×, docs/benchmarks.md). A site with
 * millions of distinct paths pays about 2× on those reads instead, the trade docs/architecture.md
 * records. Referrers, UTM tags and titles stay plain strings: they are mostly distinct.
 */
export const LOW_CARDINALITY_COLUMNS: { events: Array<keyof typeof EVENT_COLUMN_TABLE>; sessions: Array<keyof typeof SESSION_COLUMN_TABLE> } = {
  events: ['pathname', 'hostname', 'referrer_source'],
  sessions: ['entry_page', 'exit_page', 'exit_page_hostname', 'hostname', 'referrer_source'],
};

/** One logical row per visit, updated by appending a cancel row (-1) and a new state row (+1). */
export const SESSIONS: TableDef = {
  name: 'sessions',
  columns: createdColumns(SESSION_COLUMN_TABLE),
  engine: 'VersionedCollapsingMergeTree',
  engineArgs: 'sign, events',
  partitionBy: 'toYYYYMM(start)',
  orderBy: '(site_id, toDate(start), user_id, session_id)',
  sampleBy: 'user_id',
  shardingKey: 'user_id',
};

/**
 * The tables the ingestion journal writes (src/ingest/journal.ts) remember the tokens of their
 * last 1,000 inserts, so a batch resent after a crash is stored once. Replicated tables on a
 * cluster deduplicate by their own `replicated_deduplication_window`.
 */
export const JOURNAL_DEDUPLICATION_SETTINGS = 'non_replicated_deduplication_window = 1000';

/** Per site, hour and outcome: accepted, each drop reason, each classification, truncations. */
export const INGEST_COUNTERS: TableDef = {
  name: 'ingest_counters',
  columns: ["hour DateTime('UTC')", 'site_id UInt64', 'reason LowCardinality(String)', 'value UInt64'],
  engine: 'SummingMergeTree',
  engineArgs: 'value',
  partitionBy: 'toYYYYMM(hour)',
  orderBy: '(site_id, hour, reason)',
  shardingKey: 'site_id',
};

const ROLLUP_KEY = ['site_id UInt64', 'import_id UInt64', 'date Date'];
const VISIT_TOTALS = ['visitors UInt64', 'visits UInt64', 'visit_duration UInt64', 'bounces UInt64', 'pageviews UInt64'];

function rollup(name: string, columns: string[], orderBy: string): TableDef {
  return {
    name: `rollup_${name}`,
    columns: [...ROLLUP_KEY, ...columns],
    engine: 'MergeTree',
    partitionBy: 'toYYYYMM(date)',
    orderBy: `(site_id, date${orderBy ? `, ${orderBy}` : ''})`,
    shardingKey: 'site_id',
  };
}

/**
 * The ten daily roll-ups, one row per site, local day (in the site's time zone) and dimension
 * value; `import_id` 0 marks rows computed from our own events, others come from imports.
 */
export const ROLLUPS: TableDef[] = [
  rollup('visitors', VISIT_TOTALS, ''),
  rollup(
    'sources',
    [
      'source String',
      'referrer String',
      'utm_source String',
      'utm_medium String',
      'utm_campaign String',
      'utm_content String',
      'utm_term String',
      'channel LowCardinality(String)',
      ...VISIT_TOTALS,
    ],
    'source',
  ),
  rollup(
    'pages',
    [
      'hostname String',
      'page String',
      'visitors UInt64',
      'pageviews UInt64',
      'exits UInt64',
      'visits UInt64',
      'total_scroll_depth UInt64',
      'total_scroll_depth_visits UInt64',
      'total_time_on_page UInt64',
      'total_time_on_page_visits UInt64',
    ],
    'hostname, page',
  ),
  rollup(
    'entry_pages',
    ['entry_page String', 'visitors UInt64', 'entrances UInt64', 'visit_duration UInt64', 'bounces UInt64', 'pageviews UInt64'],
    'entry_page',
  ),
  rollup('exit_pages', ['exit_page String', 'visitors UInt64', 'exits UInt64', 'visit_duration UInt64', 'bounces UInt64', 'pageviews UInt64'], 'exit_page'),
  rollup('custom_events', ['name String', 'link_url String', 'path String', 'visitors UInt64', 'events UInt64'], 'name'),
  rollup('locations', ['country LowCardinality(FixedString(2))', 'region LowCardinality(String)', 'city String', ...VISIT_TOTALS], 'country, region, city'),
  rollup('devices', ['device LowCardinality(String)', ...VISIT_TOTALS], 'device'),
  rollup('browsers', ['browser LowCardinality(String)', 'browser_version LowCardinality(String)', ...VISIT_TOTALS], 'browser'),
  rollup(
    'operating_systems',
    ['operating_system LowCardinality(String)', 'operating_system_version LowCardinality(String)', ...VISIT_TOTALS],
    'operating_system',
  ),
];
