import { IMPORTED_ROLLUPS, importedTableName } from '../stores/clickhouse/schema.js';

/**
 * What an import reads: the ten daily tables of Plausible's CSV export (or ours, which has the
 * same names and columns), each stored in the roll-up table of the same name under the import's
 * id. The accepted columns are the roll-up table's own (src/stores/clickhouse/schema.ts), so a
 * column added there is importable at once. The rules are Plausible's for its own CSV imports.
 */

export type ColumnKind = 'count' | 'text' | 'country';

export interface ImportTable {
  /** `visitors`, `sources`, …: the file is `[imported_]<base>_<YYYYMMDD>_<YYYYMMDD>.csv`. */
  base: string;
  table: string;
  columns: { name: string; kind: ColumnKind }[];
}

function kindOf(type: string): ColumnKind {
  if (type.startsWith('UInt')) return 'count';
  if (type.includes('FixedString(2)')) return 'country';
  return 'text';
}

export const IMPORT_TABLES: ImportTable[] = IMPORTED_ROLLUPS.map((rollup) => ({
  base: rollup.name,
  table: importedTableName(rollup),
  columns: Object.entries(rollup.columns).map(([name, { type }]) => ({ name, kind: kindOf(type) })),
}));

/** Files in an export that an import passes over: raw events, and Plausible's custom-props table, which it ignores too. */
const SKIPPED = /^(events|imported_custom_props)(_\d{8}_\d{8})?\.csv$/;

export type ImportFileName = { table: ImportTable; from: string; to: string } | { skip: true } | { error: string };

const isoDay = (compact: string) => `${compact.slice(0, 4)}-${compact.slice(4, 6)}-${compact.slice(6, 8)}`;

function validDay(day: string): boolean {
  const time = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === day;
}

/** Reads a file name: which table, and which days it covers. */
export function parseImportFileName(name: string): ImportFileName {
  if (SKIPPED.test(name)) return { skip: true };
  const match = /^(?:imported_)?([a-z_]+)_(\d{8})_(\d{8})\.csv$/.exec(name);
  const table = match && IMPORT_TABLES.find((t) => t.base === match[1]);
  if (!match || !table) {
    return {
      error: `"${name}" is not a file of an export: names are like imported_visitors_20240101_20241231.csv, for the tables ${IMPORT_TABLES.map((t) => t.base).join(', ')}.`,
    };
  }
  const from = isoDay(match[2] as string);
  const to = isoDay(match[3] as string);
  if (!validDay(from) || !validDay(to) || from > to) return { error: `"${name}" names no valid range of days.` };
  return { table, from, to };
}

const MAX_TEXT = 2048;
const MAX_COUNT = 2 ** 53 - 1;

export class ImportRowError extends Error {}

/**
 * One CSV record (header name → text) as a row of the table, or an ImportRowError with a sentence.
 * Missing columns take their defaults (0 or empty), as Plausible's importer does; columns the
 * table does not have are passed over. A row dated outside the file's days is skipped (null).
 */
export function convertRecord(
  table: ImportTable,
  record: Record<string, string | undefined>,
  range: { from: string; to: string },
): Record<string, string | number> | null {
  const date = (record.date ?? '').trim();
  if (!validDay(date)) throw new ImportRowError(`"date" must be a day such as 2024-01-31; got "${record.date ?? ''}".`);
  if (date < range.from || date > range.to) return null;
  const row: Record<string, string | number> = { date };
  for (const column of table.columns) {
    const raw = record[column.name];
    if (column.kind === 'count') {
      const text = (raw ?? '').trim();
      if (text === '') row[column.name] = 0;
      else if (!/^\d+$/.test(text) || Number(text) > MAX_COUNT) throw new ImportRowError(`"${column.name}" must be a whole number of 0 or more; got "${raw}".`);
      else row[column.name] = Number(text);
    } else if (column.kind === 'country') {
      const code = (raw ?? '').trim().toUpperCase();
      if (code !== '' && !/^[A-Z]{2}$/.test(code)) throw new ImportRowError(`"${column.name}" must be a two-letter country code; got "${raw}".`);
      row[column.name] = code;
    } else {
      const text = raw ?? '';
      if (text.length > MAX_TEXT) throw new ImportRowError(`"${column.name}" is longer than ${MAX_TEXT} characters.`);
      // Plausible writes 0 for an unknown city id; it is no city.
      row[column.name] = column.name === 'city' && text === '0' ? '' : text;
    }
  }
  return row;
}
