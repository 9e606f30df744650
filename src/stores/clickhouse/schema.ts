import type { TableDef } from './ddl.js';

/**
 * The analytics schema. Column names follow the reference product's (events_v2, sessions_v2,
 * imported_*) so its metric definitions translate directly; additions are ours:
 * `channel` (computed at ingestion, not by a UDF), `device`, `language`, `page_title`, `city`
 * (a name: our geo source has no GeoNames ids), `classification` (bot, spam, … kept but excluded
 * from reports by default), `interactive`, `tracker_version`.
 */

/** Attributes a visit takes from its first event and copies onto every event row. */
const VISIT_ATTRIBUTES = [
  'referrer String CODEC(ZSTD(3))',
  'referrer_source String CODEC(ZSTD(3))',
  'click_id_param LowCardinality(String)',
  'utm_medium String CODEC(ZSTD(3))',
  'utm_source String CODEC(ZSTD(3))',
  'utm_campaign String CODEC(ZSTD(3))',
  'utm_content String CODEC(ZSTD(3))',
  'utm_term String CODEC(ZSTD(3))',
  'channel LowCardinality(String)',
  'country_code LowCardinality(FixedString(2))',
  'subdivision1_code LowCardinality(String)',
  'subdivision2_code LowCardinality(String)',
  'city String CODEC(ZSTD(3))',
  'screen_size LowCardinality(String)',
  'device LowCardinality(String)',
  'operating_system LowCardinality(String)',
  'operating_system_version LowCardinality(String)',
  'browser LowCardinality(String)',
  'browser_version LowCardinality(String)',
  'language LowCardinality(String)',
];

export const EVENTS: TableDef = {
  name: 'events',
  columns: [
    "timestamp DateTime('UTC') CODEC(Delta, LZ4)",
    'site_id UInt64',
    'name LowCardinality(String)',
    'user_id UInt64',
    'session_id UInt64',
    'hostname String CODEC(ZSTD(3))',
    'pathname String CODEC(ZSTD(3))',
    'page_title String CODEC(ZSTD(3))',
    ...VISIT_ATTRIBUTES,
    'props Map(String, String) CODEC(ZSTD(3))',
    'revenue_source_amount Nullable(Decimal(18, 3))',
    'revenue_source_currency LowCardinality(String)',
    // 255 = not measured; 0 on every event other than engagement.
    'scroll_depth UInt8',
    'engagement_time UInt32',
    'interactive UInt8 DEFAULT 1',
    'tracker_version LowCardinality(String)',
    'classification LowCardinality(String)',
  ],
  engine: 'MergeTree',
  partitionBy: 'toYYYYMM(timestamp)',
  orderBy: '(site_id, toDate(timestamp), name, user_id, timestamp)',
  sampleBy: 'user_id',
  shardingKey: 'user_id',
};

/**
 * Columns added to `events` after its first release, each by its own migration. The idempotency
 * key (`k`, lower-cased UUID, '' when absent) is stored with its event, so the keys of the last 24
 * hours survive a restart exactly when their events do.
 */
export const EVENTS_IDEMPOTENCY_KEY = 'idempotency_key String CODEC(ZSTD(3))';

/**
 * Columns stored as `LowCardinality(String)` since migration 4, by table. Page paths, hostnames
 * and sources hold few distinct values per part on most sites, and reports filter and group by
 * them on every dashboard: a filter on one page compares each part's dictionary once instead of
 * every row (5× faster at 10 M events; regular expressions 12×, docs/benchmarks.md). A site with
 * millions of distinct paths pays about 2× on those reads instead, the trade docs/architecture.md
 * records. Referrers, UTM tags and titles stay plain strings: they are mostly distinct.
 */
export const LOW_CARDINALITY_COLUMNS: Record<'events' | 'sessions', string[]> = {
  events: ['pathname', 'hostname', 'referrer_source'],
  sessions: ['entry_page', 'exit_page', 'exit_page_hostname', 'hostname', 'referrer_source'],
};

/** One logical row per visit, updated by appending a cancel row (-1) and a new state row (+1). */
export const SESSIONS: TableDef = {
  name: 'sessions',
  columns: [
    'session_id UInt64',
    'sign Int8',
    'site_id UInt64',
    'user_id UInt64',
    'hostname String CODEC(ZSTD(3))',
    "timestamp DateTime('UTC') CODEC(Delta, LZ4)",
    "start DateTime('UTC') CODEC(Delta, LZ4)",
    'is_bounce UInt8',
    'entry_page String CODEC(ZSTD(3))',
    'exit_page String CODEC(ZSTD(3))',
    'exit_page_hostname String CODEC(ZSTD(3))',
    'pageviews Int32',
    // Grows by one with every update, so it doubles as the collapsing version.
    'events Int32',
    'duration UInt32',
    ...VISIT_ATTRIBUTES,
    'entry_props Map(String, String) CODEC(ZSTD(3))',
    'classification LowCardinality(String)',
  ],
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
