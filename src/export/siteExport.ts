import { Readable } from 'node:stream';
import type { ClickHouseClient } from '@clickhouse/client';
import { ZipFile } from 'yazl';
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
  const read = async (file: ExportFile, tail: string, extra: Record<string, unknown>, format: 'CSV' | 'CSVWithNames' = 'CSV'): Promise<string> => {
    const settings = file.settings ? `${READ_SETTINGS}, ${file.settings}` : READ_SETTINGS;
    const result = await client.query({ query: `${file.select} ${tail} ${settings}`, query_params: { ...params, ...extra }, format });
    return result.text();
  };
  const dayCounts = (async (): Promise<DayCount[]> => {
    const result = await client.query({
      query: `SELECT toString(toDate(timestamp, {tz:String})) AS day, count() AS events FROM events
              WHERE site_id = {site:UInt64} AND timestamp >= toDateTime({from:Date}, {tz:String}) AND timestamp < toDateTime({to:Date} + 1, {tz:String})
              GROUP BY day ORDER BY day ${READ_SETTINGS}`,
      query_params: { ...params, from: range.from, to: range.to },
      format: 'JSONEachRow',
    });
    return (await result.json<{ day: string; events: string | number }>()).map((row) => ({ day: row.day, events: Number(row.events) }));
  })();

  async function* fileContents(file: ExportFile, raw: boolean): AsyncGenerator<string> {
    yield await read(file, 'LIMIT 0', { from: range.from, to: range.to }, 'CSVWithNames');
    const groups = groupDays(await dayCounts, raw ? ROWS_PER_READ : ROWS_PER_READ * 20);
    for (const group of groups) {
      const slice = { from: group.from, to: group.to };
      if (!raw || group.events <= ROWS_PER_READ) {
        yield await read(file, `ORDER BY ${file.orderBy}`, slice);
        continue;
      }
      for (let offset = 0; offset < group.events; offset += ROWS_PER_READ) {
        yield await read(file, `ORDER BY ${file.orderBy} LIMIT {limit:UInt64} OFFSET {offset:UInt64}`, {
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
