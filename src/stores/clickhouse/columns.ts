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
  /**
   * ClickHouse type, with codec and default, as the table was created: migration 4 stored some as
   * LowCardinality(String) since (schema.ts LOW_CARDINALITY_COLUMNS).
   */
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

/**
 * A column: its type as created, its JSON value, and its place in the raw events file (none: not
 * exported) with the SQL written there when it is not the stored value.
 */
function column<V extends keyof ColumnValues>(type: string, value: V, exportedAt?: number, exportSql?: string) {
  if (exportedAt === undefined) return { type, value };
  return { type, value, exported: exportSql === undefined ? { at: exportedAt } : { at: exportedAt, sql: exportSql } };
}

/** Attributes a visit takes from its first event; `sessions` keeps them and every event row a copy. */
export const VISIT_ATTRIBUTE_TABLE = {
  referrer: column(TEXT, 'text', 6),
  referrer_source: column(TEXT, 'text', 7),
  click_id_param: column(LOW, 'text'),
  utm_medium: column(TEXT, 'text', 9),
  utm_source: column(TEXT, 'text', 8),
  utm_campaign: column(TEXT, 'text', 10),
  utm_content: column(TEXT, 'text', 11),
  utm_term: column(TEXT, 'text', 12),
  channel: column(LOW, 'text', 13),
  country_code: column('LowCardinality(FixedString(2))', 'text', 14, "replaceAll(toString(country_code), '\\0', '')"),
  subdivision1_code: column(LOW, 'text', 15),
  subdivision2_code: column(LOW, 'text', 16),
  city: column(TEXT, 'text', 17),
  screen_size: column(LOW, 'text', 18),
  device: column(LOW, 'text', 19),
  operating_system: column(LOW, 'text', 20),
  operating_system_version: column(LOW, 'text', 21),
  browser: column(LOW, 'text', 22),
  browser_version: column(LOW, 'text', 23),
  language: column(LOW, 'text', 24),
} as const satisfies ColumnTable;

/** One row per event; the visit's attributes, ids and classification are copied onto it. */
export const EVENT_COLUMN_TABLE = {
  timestamp: column(TIME, 'time', 1, "formatDateTime(timestamp, '%Y-%m-%dT%H:%i:%SZ', 'UTC')"),
  site_id: column('UInt64', 'number'),
  name: column(LOW, 'text', 2),
  user_id: column('UInt64', 'id', 32),
  session_id: column('UInt64', 'id', 33),
  hostname: column(TEXT, 'text', 3),
  pathname: column(TEXT, 'text', 4),
  page_title: column(TEXT, 'text', 5),
  ...VISIT_ATTRIBUTE_TABLE,
  props: column(MAP, 'map', 25, 'toJSONString(props)'),
  revenue_source_amount: column('Nullable(Decimal(18, 3))', 'amount', 26),
  revenue_source_currency: column(LOW, 'text', 27),
  // 255 = not measured; 0 on every event other than engagement.
  scroll_depth: column('UInt8', 'number', 28, "if(scroll_depth <= 100, toString(scroll_depth), '')"),
  engagement_time: column('UInt32', 'number', 29),
  interactive: column('UInt8 DEFAULT 1', 'number', 30),
  tracker_version: column(LOW, 'text'),
  classification: column(LOW, 'text', 31),
  // `k`, lower-cased, or '' when the request had none: stored with its event, so the keys of the
  // last 24 hours survive a restart exactly when their events do.
  idempotency_key: { type: TEXT, value: 'text', addedBy: 2 },
} as const satisfies ColumnTable;

/** One logical row per visit, updated by appending a cancel row (-1) and a new state row (+1). */
export const SESSION_COLUMN_TABLE = {
  session_id: column('UInt64', 'id'),
  sign: column('Int8', 'sign'),
  site_id: column('UInt64', 'number'),
  user_id: column('UInt64', 'id'),
  hostname: column(TEXT, 'text'),
  timestamp: column(TIME, 'time'),
  start: column(TIME, 'time'),
  is_bounce: column('UInt8', 'number'),
  entry_page: column(TEXT, 'text'),
  exit_page: column(TEXT, 'text'),
  exit_page_hostname: column(TEXT, 'text'),
  pageviews: column('Int32', 'number'),
  // Grows by one with every update, so it doubles as the collapsing version.
  events: column('Int32', 'number'),
  duration: column('UInt32', 'number'),
  ...VISIT_ATTRIBUTE_TABLE,
  entry_props: column(MAP, 'map'),
  classification: column(LOW, 'text'),
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
