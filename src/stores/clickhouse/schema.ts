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

/**
 * Under load the write buffer inserts a part of about 250 events many times a second (the spec's
 * flush rule). With ClickHouse's default `merge_selector_base` of 5, a partition of few parts
 * merges its largest part with each handful of new ones, rewriting it again and again: the merges
 * took much of ingestion's CPU. A base of 20 waits for more, similar parts before merging them,
 * for a few more active parts in the busy partition, which queries barely notice
 * (docs/benchmarks.md). Set by migration 10.
 */
export const EVENTS_MERGE_SETTINGS = 'merge_selector_base = 20';

/** The idempotency key, added to `events` by migration 2 (columns.ts). */
export const EVENTS_IDEMPOTENCY_KEY = columnDefinition(EVENT_COLUMN_TABLE, 'idempotency_key');

/**
 * Columns stored as `LowCardinality(String)` since migration 4, by table. Page paths, hostnames
 * and sources hold few distinct values per part on most sites, and reports filter and group by
 * them on every dashboard: a filter on one page compares each part's dictionary once instead of
 * every row, and a regular expression is matched once per distinct value (docs/benchmarks.md). A
 * site with millions of distinct paths pays more on those reads instead, the trade
 * docs/architecture.md records. Referrers, UTM tags and titles stay plain strings: they are mostly distinct.
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
 * The earliest start (ms) of a visit still active at `at`: no visit lasts a week. The bound only
 * lets the primary key (by the day a visit began) prune; it is never earlier than 1970, the first
 * instant the store holds. A range's visits and the rows after the roll-ups' last instant take
 * it alike, so the day so far (daySoFar.ts) and the raw rows read after its cut are the same visits.
 */
export const earliestVisitStart = (at: number) => Math.max(0, at - 7 * 86_400_000);

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

/** A total an imported row carries, summed over the rows of a group (src/query/model.ts ImportedTotal). */
export type ImportedTotal =
  | 'visitors'
  | 'visits'
  | 'pageviews'
  | 'events'
  | 'bounces'
  | 'visit_duration'
  | 'time_on_page'
  | 'time_on_page_visits'
  | 'scroll_depth'
  | 'scroll_depth_visits';

/**
 * A column of an imported daily table: its type, the query dimensions it holds (read through
 * `read` when not the column itself) and the totals it holds, from which the query engine plans
 * its reads of imported data (src/query/plan/importedPlan.ts).
 */
export interface ImportedColumn {
  type: string;
  dimensions?: string[];
  read?: string;
  totals?: ImportedTotal[];
}

export interface ImportedRollup {
  /** Without the `rollup_` prefix: the file base of Plausible's export (src/imports/importFiles.ts). */
  name: string;
  columns: Record<string, ImportedColumn>;
  /** Sorting keys after site and day. */
  orderBy: string;
}

export const importedTableName = (rollup: ImportedRollup) => `rollup_${rollup.name}`;

const holds = (type: string, ...dimensions: string[]): ImportedColumn => ({ type, dimensions });
const total = (...totals: ImportedTotal[]): ImportedColumn => ({ type: 'UInt64', totals });

/** What visits summed over a group came to (the visits themselves counted by each table). */
const VISIT_SUMS = {
  visit_duration: total('visit_duration'),
  bounces: total('bounces'),
  // As the reference: outside custom events, an imported visit's events are its pageviews.
  pageviews: total('pageviews', 'events'),
};
const VISIT_TOTALS = { visitors: total('visitors'), visits: total('visits'), ...VISIT_SUMS };

/**
 * The ten tables of imported data, one row per site, local day (in the site's time zone) and
 * dimension value, in Plausible's export columns. Held by no query dimension on purpose: `city`
 * (Plausible's export holds GeoNames ids, ours a name: the two never match) and `channel` (exports
 * before 2024-11 have no channel, so imported rows would all read "Direct"); the other dimensions
 * (`visit:language`, `event:page_title`, custom properties, hostnames of entry and exit pages) no
 * table carries. `device` holds both `visit:device` and `visit:screen`: Plausible's export (and
 * ours) fills it with the screen-size class.
 */
export const IMPORTED_ROLLUPS: ImportedRollup[] = [
  { name: 'visitors', columns: VISIT_TOTALS, orderBy: '' },
  {
    name: 'sources',
    columns: {
      source: holds('String', 'visit:source'),
      referrer: holds('String', 'visit:referrer'),
      utm_source: holds('String', 'visit:utm_source'),
      utm_medium: holds('String', 'visit:utm_medium'),
      utm_campaign: holds('String', 'visit:utm_campaign'),
      utm_content: holds('String', 'visit:utm_content'),
      utm_term: holds('String', 'visit:utm_term'),
      channel: holds('LowCardinality(String)'),
      ...VISIT_TOTALS,
    },
    orderBy: 'source',
  },
  {
    name: 'pages',
    columns: {
      hostname: holds('String', 'event:hostname'),
      page: holds('String', 'event:page'),
      visitors: total('visitors'),
      pageviews: total('pageviews', 'events'),
      exits: total(),
      visits: total('visits'),
      // Each visit's deepest scroll summed, and the visits measured; engaged seconds, and the visits that engaged.
      total_scroll_depth: total('scroll_depth'),
      total_scroll_depth_visits: total('scroll_depth_visits'),
      total_time_on_page: total('time_on_page'),
      total_time_on_page_visits: total('time_on_page_visits'),
    },
    orderBy: 'hostname, page',
  },
  {
    name: 'entry_pages',
    columns: { entry_page: holds('String', 'visit:entry_page'), visitors: total('visitors'), entrances: total('visits'), ...VISIT_SUMS },
    orderBy: 'entry_page',
  },
  {
    name: 'exit_pages',
    columns: { exit_page: holds('String', 'visit:exit_page'), visitors: total('visitors'), exits: total('visits'), ...VISIT_SUMS },
    orderBy: 'exit_page',
  },
  {
    name: 'custom_events',
    columns: { name: holds('String', 'event:name'), link_url: holds('String'), path: holds('String'), visitors: total('visitors'), events: total('events') },
    orderBy: 'name',
  },
  {
    name: 'locations',
    columns: {
      country: { type: 'LowCardinality(FixedString(2))', dimensions: ['visit:country'], read: 'toString(country)' },
      region: holds('LowCardinality(String)', 'visit:region'),
      city: holds('String'),
      ...VISIT_TOTALS,
    },
    orderBy: 'country, region, city',
  },
  { name: 'devices', columns: { device: holds('LowCardinality(String)', 'visit:device', 'visit:screen'), ...VISIT_TOTALS }, orderBy: 'device' },
  {
    name: 'browsers',
    columns: {
      browser: holds('LowCardinality(String)', 'visit:browser'),
      browser_version: holds('LowCardinality(String)', 'visit:browser_version'),
      ...VISIT_TOTALS,
    },
    orderBy: 'browser',
  },
  {
    name: 'operating_systems',
    columns: {
      operating_system: holds('LowCardinality(String)', 'visit:os'),
      operating_system_version: holds('LowCardinality(String)', 'visit:os_version'),
      ...VISIT_TOTALS,
    },
    orderBy: 'operating_system',
  },
];

/**
 * The ten daily roll-ups of imported data as tables; `import_id` 0 marks rows computed from our
 * own events, others come from imports.
 */
export const ROLLUPS: TableDef[] = IMPORTED_ROLLUPS.map((rollup) => ({
  name: importedTableName(rollup),
  columns: ['site_id UInt64', 'import_id UInt64', 'date Date', ...Object.entries(rollup.columns).map(([column, { type }]) => `${column} ${type}`)],
  engine: 'MergeTree',
  partitionBy: 'toYYYYMM(date)',
  orderBy: `(site_id, date${rollup.orderBy ? `, ${rollup.orderBy}` : ''})`,
  shardingKey: 'site_id',
}));
