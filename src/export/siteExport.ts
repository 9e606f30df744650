import { Readable } from 'node:stream';
import type { ClickHouseClient } from '@clickhouse/client';
import { ZipFile } from 'yazl';
import { ROLLUP_TABLES, rollupTableName } from '../stores/clickhouse/dailyRollups.js';
import { EXPORT_FILES, type ExportFile, RAW_EVENTS_FILE } from './exportFiles.js';

/** Rows per read: the engine buffers whole results (design.md guardrail 10), so reads stay this small. */
const ROWS_PER_READ = 50_000;
/** Each read's own bound (guardrail 2: settings in the statement, not on the shared connection). */
const READ_SETTINGS = 'SETTINGS max_execution_time = 120, join_use_nulls = 0';

export interface ExportSite {
  id: number;
  domain: string;
  timezone: string;
  /** Classifications the site counts in its reports ('' — no classification — is always counted). */
  included: string[];
  /** The first local day (YYYY-MM-DD) whose raw events are all kept; earlier days are read from roll-ups. Null: all kept. */
  rawEventsFrom: string | null;
}

export interface ExportRange {
  /** Site-local days, inclusive (YYYY-MM-DD). */
  from: string;
  to: string;
}

interface DayCount {
  day: string;
  events: number;
}

/** Where a slice of days is read: raw rows, or the daily roll-ups for days whose raw events are deleted. */
type DaySource = 'raw' | 'rolledUp';

/** Every event but engagement, counted per local day: what sizes a slice of rolled-up days. */
const ROLLED_EVENTS = rollupTableName(ROLLUP_TABLES.find((table) => table.name === 'custom_events')!);

const compact = (day: string) => day.replaceAll('-', '');

/** `<domain with . → _>_<YYYYMMDD>.zip`, as Plausible names its exports. */
export function exportFileName(domain: string, today: string): string {
  return `${domain.replaceAll('.', '_')}_${compact(today)}.zip`;
}

/** Consecutive days grouped so that each group holds about `limit` events (a bigger day stands alone). */
export function groupDays(days: DayCount[], limit: number): { from: string; to: string; events: number }[] {
  const groups: { from: string; to: string; events: number }[] = [];
  for (const { day, events } of days) {
    const last = groups.at(-1);
    if (last && last.events + events <= limit) {
      last.to = day;
      last.events += events;
    } else groups.push({ from: day, to: day, events });
  }
  return groups;
}

/**
 * A ZIP of the site's export, streamed: each file is read from the event store in bounded slices
 * (a few weeks of days, or pages of one big day) as the ZIP writer asks for it, so memory stays
 * flat whatever the site's size. The eleven files are always present, with their header row even
 * when empty.
 */
export function streamSiteExport(client: ClickHouseClient, site: ExportSite, range: ExportRange): Readable {
  const params = { site: site.id, tz: site.timezone, included: ['', ...site.included] };
  const read = async (
    select: string,
    file: ExportFile,
    tail: string,
    extra: Record<string, unknown>,
    format: 'CSV' | 'CSVWithNames' = 'CSV',
  ): Promise<string> => {
    const settings = file.settings ? `${READ_SETTINGS}, ${file.settings}` : READ_SETTINGS;
    const result = await client.query({ query: `${select} ${tail} ${settings}`, query_params: { ...params, ...extra }, format });
    return result.text();
  };
  const countDays = async (query: string, extra: Record<string, unknown>): Promise<DayCount[]> => {
    const result = await client.query({ query: `${query} ${READ_SETTINGS}`, query_params: { ...params, ...extra }, format: 'JSONEachRow' });
    return (await result.json<{ date: string; events: string | number }>()).map((row) => ({ day: row.date, events: Number(row.events) }));
  };
  // Raw events of the kept days, roll-up rows of the days before them (docs/rollups.md, Retention).
  const rolledUntil = site.rawEventsFrom !== null && site.rawEventsFrom > range.from ? site.rawEventsFrom : null;
  const dayCounts = (async (): Promise<Record<DaySource, DayCount[]>> => ({
    raw: await countDays(
      `SELECT toString(toDate(timestamp, {tz:String})) AS date, count() AS events FROM events
       WHERE site_id = {site:UInt64} AND timestamp >= toDateTime({from:Date}, {tz:String}) AND timestamp < toDateTime({to:Date} + 1, {tz:String})
       GROUP BY date ORDER BY date`,
      { from: rolledUntil ?? range.from, to: range.to },
    ),
    rolledUp:
      rolledUntil === null
        ? []
        : await countDays(
            `SELECT toString(day) AS date, sum(events) AS events FROM ${ROLLED_EVENTS}
             WHERE site_id = {site:UInt64} AND days = 1 AND day >= {from:Date} AND day <= {to:Date} AND day < {until:Date}
             GROUP BY date ORDER BY date`,
            { from: range.from, to: range.to, until: rolledUntil },
          ),
  }))();

  async function* fileContents(file: ExportFile, raw: boolean): AsyncGenerator<string> {
    yield await read(file.select, file, 'LIMIT 0', { from: range.from, to: range.to }, 'CSVWithNames');
    const counts = await dayCounts;
    const slices = (source: DaySource) => groupDays(counts[source], raw ? ROWS_PER_READ : ROWS_PER_READ * 20).map((group) => ({ ...group, source }));
    // Roll-ups keep no raw events: the raw file holds the kept days only.
    for (const group of [...(file.rolledUp ? slices('rolledUp') : []), ...slices('raw')]) {
      const select = group.source === 'rolledUp' ? file.rolledUp! : file.select;
      const slice = { from: group.from, to: group.to };
      if (!raw || group.events <= ROWS_PER_READ) {
        yield await read(select, file, `ORDER BY ${file.orderBy}`, slice);
        continue;
      }
      for (let offset = 0; offset < group.events; offset += ROWS_PER_READ) {
        yield await read(select, file, `ORDER BY ${file.orderBy} LIMIT {limit:UInt64} OFFSET {offset:UInt64}`, {
          ...slice,
          limit: ROWS_PER_READ,
          offset,
        });
      }
    }
  }

  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  const suffix = `_${compact(range.from)}_${compact(range.to)}.csv`;
  const add = (file: ExportFile, raw: boolean) => {
    const contents = Readable.from(fileContents(file, raw));
    // A failed read cannot become an error status once the download has begun: the download is
    // cut off instead, so no one mistakes a partial ZIP for a whole one.
    contents.on('error', (error) => output.destroy(error));
    zip.addReadStream(contents, `${file.base}${suffix}`);
  };
  for (const file of EXPORT_FILES) add(file, false);
  add(RAW_EVENTS_FILE, true);
  zip.end();
  return output;
}
