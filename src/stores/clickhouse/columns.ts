/**
 * The columns of `events` and `sessions`, each written once, in stored order. From these tables
 * come the CREATE TABLE statements (schema.ts), the row types and the column order of an encoded
 * row (src/ingest/rows.ts: the ingestion journal keeps rows in that order on disk, so it never
 * changes), the grouping keys of the daily roll-ups (dailyRollups.ts) and the raw events file of an
 * export (src/export/exportFiles.ts, docs/export.md). Column names follow the reference product's
 * (events_v2, sessions_v2) so its metric definitions translate directly; additions are ours:
 * `channel` (computed at ingestion, not by a UDF), `device`, `language`, `page_title`, `city` (a
 * name: our geo source has no GeoNames ids), `classification` (bot, spam, … kept but excluded from
 * reports by default), `interactive`, `tracker_version`, `idempotency_key`.
 */

/** How a column's value travels in a JSON row (JSONEachRow, JSONCompactEachRow). */
export interface ColumnValues {
  text: string;
  number: number;
  /** 64-bit unsigned integers travel as decimal strings. */
  id: string;
  /** 'YYYY-MM-DD HH:MM:SS' in UTC. */
  time: string;
  map: Record<string, string>;
  /** A decimal as text; null when absent. */
  amount: string | null;
  /** A collapsing row's sign: +1 a state, -1 the cancel of an earlier one. */
  sign: 1 | -1;
}

export interface Column {
  /** ClickHouse type, with codec and default, as the table was created. */
  type: string;
  value: keyof ColumnValues;
  /** Added by this migration (src/stores/clickhouse/migrations.ts), so not in the table's CREATE TABLE. */
  addedBy?: number;
  /**
   * Its place in the raw events file of an export (1 = first; the `sessions` table has no file),
   * and the SQL written there when it is not the stored value; a column without is not exported.
   */
  exported?: { at: number; sql?: string };
}

export type ColumnTable = Readonly<Record<string, Column>>;

/** A row of a table as JSON carries it. */
export type RowOf<T extends ColumnTable> = { -readonly [K in keyof T]: ColumnValues[T[K]['value']] };

const TIME = "DateTime('UTC') CODEC(Delta, LZ4)";
const TEXT = 'String CODEC(ZSTD(3))';
const LOW = 'LowCardinality(String)';
const MAP = 'Map(String, String) CODEC(ZSTD(3))';

/** Attributes a visit takes from its first event; `sessions` keeps them and every event row a copy. */
export const VISIT_ATTRIBUTE_TABLE = {
  referrer: { type: TEXT, value: 'text', exported: { at: 6 } },
  referrer_source: { type: TEXT, value: 'text', exported: { at: 7 } },
  click_id_param: { type: LOW, value: 'text' },
  utm_medium: { type: TEXT, value: 'text', exported: { at: 9 } },
  utm_source: { type: TEXT, value: 'text', exported: { at: 8 } },
  utm_campaign: { type: TEXT, value: 'text', exported: { at: 10 } },
  utm_content: { type: TEXT, value: 'text', exported: { at: 11 } },
  utm_term: { type: TEXT, value: 'text', exported: { at: 12 } },
  channel: { type: LOW, value: 'text', exported: { at: 13 } },
  country_code: { type: 'LowCardinality(FixedString(2))', value: 'text', exported: { at: 14, sql: "replaceAll(toString(country_code), '\\0', '')" } },
  subdivision1_code: { type: LOW, value: 'text', exported: { at: 15 } },
  subdivision2_code: { type: LOW, value: 'text', exported: { at: 16 } },
  city: { type: TEXT, value: 'text', exported: { at: 17 } },
  screen_size: { type: LOW, value: 'text', exported: { at: 18 } },
  device: { type: LOW, value: 'text', exported: { at: 19 } },
  operating_system: { type: LOW, value: 'text', exported: { at: 20 } },
  operating_system_version: { type: LOW, value: 'text', exported: { at: 21 } },
  browser: { type: LOW, value: 'text', exported: { at: 22 } },
  browser_version: { type: LOW, value: 'text', exported: { at: 23 } },
  language: { type: LOW, value: 'text', exported: { at: 24 } },
} as const satisfies ColumnTable;

/** One row per event; the visit's attributes, ids and classification are copied onto it. */
export const EVENT_COLUMN_TABLE = {
  timestamp: { type: TIME, value: 'time', exported: { at: 1, sql: "formatDateTime(timestamp, '%Y-%m-%dT%H:%i:%SZ', 'UTC')" } },
  site_id: { type: 'UInt64', value: 'number' },
  name: { type: LOW, value: 'text', exported: { at: 2 } },
  user_id: { type: 'UInt64', value: 'id', exported: { at: 32 } },
  session_id: { type: 'UInt64', value: 'id', exported: { at: 33 } },
  hostname: { type: TEXT, value: 'text', exported: { at: 3 } },
  pathname: { type: TEXT, value: 'text', exported: { at: 4 } },
  page_title: { type: TEXT, value: 'text', exported: { at: 5 } },
  ...VISIT_ATTRIBUTE_TABLE,
  props: { type: MAP, value: 'map', exported: { at: 25, sql: 'toJSONString(props)' } },
  revenue_source_amount: { type: 'Nullable(Decimal(18, 3))', value: 'amount', exported: { at: 26 } },
  revenue_source_currency: { type: LOW, value: 'text', exported: { at: 27 } },
  // 255 = not measured; 0 on every event other than engagement.
  scroll_depth: { type: 'UInt8', value: 'number', exported: { at: 28, sql: "if(scroll_depth <= 100, toString(scroll_depth), '')" } },
  engagement_time: { type: 'UInt32', value: 'number', exported: { at: 29 } },
  interactive: { type: 'UInt8 DEFAULT 1', value: 'number', exported: { at: 30 } },
  tracker_version: { type: LOW, value: 'text' },
  classification: { type: LOW, value: 'text', exported: { at: 31 } },
  // `k`, lower-cased, or '' when the request had none: stored with its event, so the keys of the
  // last 24 hours survive a restart exactly when their events do.
  idempotency_key: { type: TEXT, value: 'text', addedBy: 2 },
} as const satisfies ColumnTable;

/** One logical row per visit, updated by appending a cancel row (-1) and a new state row (+1). */
export const SESSION_COLUMN_TABLE = {
  session_id: { type: 'UInt64', value: 'id' },
  sign: { type: 'Int8', value: 'sign' },
  site_id: { type: 'UInt64', value: 'number' },
  user_id: { type: 'UInt64', value: 'id' },
  hostname: { type: TEXT, value: 'text' },
  timestamp: { type: TIME, value: 'time' },
  start: { type: TIME, value: 'time' },
  is_bounce: { type: 'UInt8', value: 'number' },
  entry_page: { type: TEXT, value: 'text' },
  exit_page: { type: TEXT, value: 'text' },
  exit_page_hostname: { type: TEXT, value: 'text' },
  pageviews: { type: 'Int32', value: 'number' },
  // Grows by one with every update, so it doubles as the collapsing version.
  events: { type: 'Int32', value: 'number' },
  duration: { type: 'UInt32', value: 'number' },
  ...VISIT_ATTRIBUTE_TABLE,
  entry_props: { type: MAP, value: 'map' },
  classification: { type: LOW, value: 'text' },
} as const satisfies ColumnTable;

/** Column names in stored order. */
export const columnNames = <T extends ColumnTable>(table: T) => Object.keys(table) as Array<keyof T & string>;

/** `<name> <type>`, as CREATE TABLE and ADD COLUMN take it. */
export const columnDefinition = (table: ColumnTable, name: string) => `${name} ${table[name]!.type}`;

/** The columns a table was created with (those added later by a migration left out), as CREATE TABLE lists them. */
export const createdColumns = (table: ColumnTable) =>
  Object.keys(table)
    .filter((name) => table[name]!.addedBy === undefined)
    .map((name) => columnDefinition(table, name));
