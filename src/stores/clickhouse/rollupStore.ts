import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import { endOfDay, formatDate, type LocalDate, parseIsoDate, startOfDay } from '../../time/localTime.js';
import {
  allColumns,
  BLOCK_KINDS,
  blocksEnding,
  blocksSelect,
  EVENT_TOTALS,
  narrowedSelect,
  ROLLUP_COVERAGE,
  ROLLUP_TABLES,
  type RollupTable,
  rollupSelect,
  rollupTableName,
  rowDay,
  rowsFrom,
} from './dailyRollups.js';
import { DAY_SO_FAR_EVENTS_SQL, type DaySoFar, daySoFarInsert } from './daySoFar.js';
import { deleteRows } from './deleteRows.js';
import {
  fitsOneStatement,
  LATEST_COMPUTATION_SQL,
  type RollupWindow,
  regroupedWindowInsert,
  regroupedWindowSizeSql,
  SITE_BOUNDS_SQL,
  type WindowRead,
  windowInsert,
  windowSizesSql,
} from './rollupWindows.js';
import { select } from './select.js';
import { FIRST_EVENT_SQL, firstEventFromRow } from './siteSpan.js';

/**
 * The statements the roll-up job (src/rollups/rollups.ts) runs on the daily roll-ups
 * (dailyRollups.ts), their window rows (rollupWindows.ts) and the coverage table: what it decides
 * stays there, the SQL is here.
 */

/** What a query may read from a site's roll-ups (src/query/rollupReads/). */
export interface Coverage {
  timezone: string;
  /** The last local day rolled up (`YYYY-MM-DD`). */
  through: string;
  /** The last instant of that day in `timezone`. */
  until: number;
  /** The first day from which blocks longer than a day, weeks aside, are stored (dailyRollups.ts COVERAGE_RUNS_COLUMN). */
  runsFrom: string;
  /** Preset ranges merged ahead per table (rollupWindows.ts), each ending by `through`. */
  windows: readonly RollupWindow[];
  /** The rows of the day after `through` merged up to a cut (daySoFar.ts), when the job merged them. */
  daySoFar?: DaySoFar;
}

/** A site's latest coverage row as read back: its version, and the windows published with it. */
export interface CoverageRow {
  site_id: string;
  latest: string;
  timezone: string;
  through: string;
  runs_from: string;
  computed: string;
  windows_through: string;
  tables: string[];
}

/** A coverage row as written: `timezone` '' records that nothing is covered. */
export interface CoverageRecord {
  site_id: number;
  timezone: string;
  through: string;
  runs_from: string;
  version: number;
  windows_computed: number;
  windows_through: string;
  window_tables: string[];
}

/** Each site's latest coverage row, the windows published with it and its version. */
const coverageSql = (where: string) =>
  `SELECT site_id, max(version) AS latest, argMax(timezone, version) AS timezone, toString(argMax(through, version)) AS through,
          toString(argMax(runs_from, version)) AS runs_from,
          argMax(windows_computed, version) AS computed, toString(argMax(windows_through, version)) AS windows_through,
          argMax(window_tables, version) AS tables
   FROM ${ROLLUP_COVERAGE.name} ${where} GROUP BY site_id`;

/** Every site's latest coverage row, or one site's. */
export function readCoverage(client: ClickHouseClient, siteId?: number): Promise<CoverageRow[]> {
  if (siteId === undefined) return select<CoverageRow>(client, coverageSql(''));
  return select<CoverageRow>(client, coverageSql('WHERE site_id = {site:UInt64}'), { site: siteId });
}

export async function writeCoverage(client: ClickHouseClient, record: CoverageRecord): Promise<void> {
  await client.insert({ table: ROLLUP_COVERAGE.name, values: [record], format: 'JSONEachRow' });
}

/** The highest computation of window rows stored (0 when none is). */
export async function latestComputation(client: ClickHouseClient): Promise<number> {
  const [latest] = await select<{ computed: string }>(client, LATEST_COMPUTATION_SQL);
  return Number(latest?.computed ?? 0);
}

/** The instant of a site's first stored event at or after `from` (ms), or null when it has none. */
export async function firstEvent(client: ClickHouseClient, siteId: number, from = 0): Promise<number | null> {
  return firstEventFromRow((await select<Record<string, unknown>>(client, FIRST_EVENT_SQL, { site: siteId, from: Math.floor(from / 1000) }))[0]);
}

/** A table's day rows from `{from:Date}` on, and the rows of every block holding one of them. */
const daysFrom = (table: RollupTable) => rowsFrom(table, '{from:Date}');

/** Deletes a site's roll-ups from `from` on, with the blocks holding those days (all of them without `from`). */
export async function deleteRollupDays(client: ClickHouseClient, cluster: string | null, siteId: number, from: string | null): Promise<void> {
  const deletes = ROLLUP_TABLES.map((table) => ({
    table: rollupTableName(table),
    condition: from === null ? 'site_id = {site:UInt64}' : `site_id = {site:UInt64} AND ${daysFrom(table)}`,
  }));
  await deleteRows(client, cluster, deletes, { site: siteId, from });
}

/** Whether a site has roll-up rows from `from` on. */
export async function hasRollupRowsFrom(client: ClickHouseClient, siteId: number, from: string): Promise<boolean> {
  const probes = ROLLUP_TABLES.map((table) => `SELECT 1 FROM ${rollupTableName(table)} WHERE site_id = {site:UInt64} AND ${daysFrom(table)} LIMIT 1`);
  const [found] = await select<{ n: string }>(client, `SELECT count() AS n FROM (${probes.join(' UNION ALL ')})`, { site: siteId, from });
  return Number(found?.n ?? 0) > 0;
}

/** The tables in the order a round fills them: a narrow table's rows are merged from its wider table's. */
const ROLLING_ORDER = [...ROLLUP_TABLES].sort((a, b) => Number(a.from !== undefined) - Number(b.from !== undefined));

/**
 * Rolls up a site's local days `first` to `last` into every table, and the blocks (runs of weeks, a
 * week's first or last days) that end within them: every one of their days is rolled up now.
 * `settings`: those each insert runs with; `sliceBytes`: the bytes of visitor sets one statement
 * may hold (rollupWindows.ts sliceCount).
 */
export async function insertRollupDays(
  client: ClickHouseClient,
  site: { id: number; timezone: string },
  first: LocalDate,
  last: LocalDate,
  settings: ClickHouseSettings,
  sliceBytes: number,
): Promise<void> {
  const where = "site_id = {site:UInt64} AND timestamp >= toDateTime({first:UInt32}, 'UTC') AND timestamp <= toDateTime({last:UInt32}, 'UTC')";
  const seconds = (ms: number) => Math.floor(ms / 1000);
  const params = {
    site: site.id,
    first: seconds(startOfDay(first, site.timezone)),
    last: seconds(endOfDay(last, site.timezone)),
    tz: site.timezone,
    firstDay: formatDate(first),
    lastDay: formatDate(last),
  };
  const inDays = (table: RollupTable, from: string, to: string) =>
    `site_id = {site:UInt64} AND ${rowDay(table)} >= {${from}:Date} AND ${rowDay(table)} <= {${to}:Date}`;
  const into = (table: RollupTable) => `INSERT INTO ${rollupTableName(table)} (${allColumns(table).join(', ')})`;
  for (const table of ROLLING_ORDER) {
    const days = table.from
      ? narrowedSelect(table, `days = 1 AND ${inDays(table, 'firstDay', 'lastDay')}`)
      : rollupSelect(table, where, '{tz:String}', { collapsed: true });
    await client.command({ query: `${into(table)} ${days}`, query_params: params, clickhouse_settings: settings });
  }
  // The blocks of each kind that end within these days: the same for every table.
  const blocks = BLOCK_KINDS.flatMap((kind) => {
    const ending = blocksEnding(kind, first, last);
    return ending ? [{ kind, from: formatDate(ending.from), to: formatDate(ending.to) }] : [];
  });
  if (blocks.length === 0) return;
  const statement = (table: RollupTable, indexes: number[]) => ({
    query: `${into(table)} ${blocksSelect(
      table,
      indexes.map((i) => ({ kind: blocks[i]!.kind, where: inDays(table, `from_${i}`, `to_${i}`) })),
    )}`,
    query_params: Object.assign({ site: site.id }, ...indexes.map((i) => ({ [`from_${i}`]: blocks[i]!.from, [`to_${i}`]: blocks[i]!.to }))),
  });
  // A site whose day rows' sets all fit one statement merges every kind at once: one pass instead
  // of one a kind, which is most of a small site's round. A busier site's kinds go one a statement:
  // all kinds at once would hold every block of a month's days in memory, more than the job may use
  // on a busy site.
  const bounds = await siteBounds(client, site.id);
  for (const table of ROLLING_ORDER) {
    const indexes = blocks.map((_, i) => i);
    const together = fitsOneStatement(table, (bounds.get(table.name) ?? 0) * blocks.length, sliceBytes);
    for (const some of together ? [indexes] : indexes.map((i) => [i])) await client.command({ ...statement(table, some), clickhouse_settings: settings });
  }
}

/** The estimated visitor hashes of each window read (`window_read`: its index), for the statement sizes of a merge. */
export function windowSizes(client: ClickHouseClient, table: RollupTable, reads: readonly WindowRead[], params: Record<string, unknown>) {
  return select<{ window_read: number; hashes: string }>(client, windowSizesSql(table, reads), params);
}

/** A site's first rolled-up day (the events totals hold a row for every day with events), or null when it has none. */
export async function firstRolledDay(client: ClickHouseClient, siteId: number): Promise<LocalDate | null> {
  const query = `SELECT toString(min(day)) AS first, count() AS rows FROM ${rollupTableName(EVENT_TOTALS)} WHERE site_id = {site:UInt64} AND days = 1`;
  const [found] = await select<{ first: string; rows: string }>(client, query, { site: siteId });
  return (found && Number(found.rows) > 0 && parseIsoDate(found.first)) || null;
}

/** The estimated visitor hashes of a table's regrouped window rows of one computation. */
export async function regroupedWindowSize(client: ClickHouseClient, table: RollupTable, computation: Record<string, unknown>): Promise<number> {
  const [regrouped] = await select<{ hashes: string }>(client, regroupedWindowSizeSql(table), computation);
  return Number(regrouped?.hashes ?? 0);
}

/** Each table's summed visitor bounds of a site's day rows, by table name. */
export async function siteBounds(client: ClickHouseClient, siteId: number): Promise<Map<string, number>> {
  const rows = await select<{ table: string; bound: string }>(client, SITE_BOUNDS_SQL, { site: siteId });
  return new Map(rows.map((row) => [row.table, Number(row.bound)]));
}

/**
 * Runs a merge of windows of a table (each as `reads` says; their regrouped rows instead) cut into
 * `slices` statements, each with `options` (memory limits and settings).
 */
export async function mergeWindow(
  client: ClickHouseClient,
  table: RollupTable,
  merge: { reads: readonly WindowRead[] } | 'regrouped',
  params: Record<string, unknown>,
  slices: number,
  options: { clickhouse_settings: ClickHouseSettings },
): Promise<void> {
  const query = merge === 'regrouped' ? regroupedWindowInsert(table) : windowInsert(table, merge.reads);
  for (let slice = 0; slice < slices; slice++) await client.command({ query, query_params: { ...params, slices, slice }, ...options });
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/** A site's events after `until` and before `cut` (ms). */
export async function eventsBefore(client: ClickHouseClient, siteId: number, until: number, cut: number): Promise<number> {
  const [found] = await select<{ events: string }>(client, DAY_SO_FAR_EVENTS_SQL, { site: siteId, until: seconds(until), cut: seconds(cut) });
  return Number(found?.events ?? 0);
}

/**
 * Merges a site's rows after `until` (the coverage's last instant) and before each family's cut
 * into every window table, as computation `rows.computed` in slot `rows.slot`, and groups them as
 * every window's rows are; `day` is the local day they fall in, `visitsFrom` the earliest start
 * of a visit read (the bound a range's raw rows take). `options`: a window merge's.
 */
export async function mergeDaySoFar(
  client: ClickHouseClient,
  site: { id: number; timezone: string },
  rows: DaySoFar,
  until: number,
  visitsFrom: number,
  day: string,
  options: { clickhouse_settings: ClickHouseSettings },
): Promise<void> {
  const computation = { site: site.id, computed: rows.computed };
  for (const table of ROLLUP_TABLES) {
    const params = {
      ...computation,
      until: seconds(until),
      cut: seconds(rows.cuts[table.family]),
      starts: seconds(visitsFrom),
      tz: site.timezone,
      day,
      slot: rows.slot,
    };
    await client.command({ query: daySoFarInsert(table), query_params: params, ...options });
    await mergeWindow(client, table, 'regrouped', computation, 1, options);
  }
}
