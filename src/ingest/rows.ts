import { columnNames, EVENT_COLUMN_TABLE, type RowOf, SESSION_COLUMN_TABLE, VISIT_ATTRIBUTE_TABLE } from '../stores/clickhouse/columns.js';

/** Rows exactly as the `events` and `sessions` tables take them (JSONEachRow), typed from their column table. */

/** Attributes a visit takes from its first event; every event row carries a copy. */
export type VisitAttributes = RowOf<typeof VISIT_ATTRIBUTE_TABLE>;
export type EventRow = RowOf<typeof EVENT_COLUMN_TABLE>;
export type SessionRow = RowOf<typeof SESSION_COLUMN_TABLE>;

/** ClickHouse DateTime text for an epoch-millisecond instant (seconds precision, UTC). */
export function clickhouseTime(epochMs: number): string {
  // Live traffic asks for the same second many times over: the last answer is kept.
  const second = Math.floor(epochMs / 1000);
  if (second !== lastTime.second) lastTime = { second, text: new Date(second * 1000).toISOString().slice(0, 19).replace('T', ' ') };
  return lastTime.text;
}
let lastTime = { second: Number.NaN, text: '' };

/** The visit attributes in column order. */
export const VISIT_ATTRIBUTE_COLUMNS = columnNames(VISIT_ATTRIBUTE_TABLE);

/** Column order of an encoded `events` row; every field of EventRow, once. */
export const EVENT_COLUMNS = columnNames(EVENT_COLUMN_TABLE);

/** Column order of an encoded `sessions` row; every field of SessionRow, once. */
export const SESSION_COLUMNS = columnNames(SESSION_COLUMN_TABLE);

/**
 * One row as a JSONCompactEachRow line (values in column order, no names). Rows are encoded the
 * moment they are buffered: the buffer then holds flat strings rather than objects that outlive
 * many garbage collections, and ClickHouse parses half the bytes.
 */
export function encodeRow<T>(row: T, columns: ReadonlyArray<keyof T>): string {
  return JSON.stringify(columns.map((column) => row[column]));
}

export type EventFields = Omit<EventRow, keyof VisitAttributes>;
export type SessionFields = Omit<SessionRow, keyof VisitAttributes>;

/**
 * A function returning every column in one object literal, compiled once from the column table:
 * a spread followed by more properties, or properties set one by one, makes V8 add them one
 * transition at a time, which was the costliest step of ingestion. `params` are the function's
 * parameters, `value` the expression each column takes (built from the table's names, never input).
 */
function rowLiteral(columns: readonly string[], params: string[], value: (column: string) => string): unknown {
  return new Function(...params, `return { ${columns.map((column) => `${column}: ${value(column)}`).join(', ')} };`);
}

const isVisitAttribute = (column: string) => Object.hasOwn(VISIT_ATTRIBUTE_TABLE, column);
const VISIT_IDENTITY = new Set(['session_id', 'user_id', 'classification']);

/** An event row: its own fields, its visit's attributes, and the visit it belongs to. */
export const eventRow = rowLiteral(EVENT_COLUMNS, ['e', 'v', 'visit = e'], (column) =>
  isVisitAttribute(column) ? `v.${column}` : VISIT_IDENTITY.has(column) ? `visit.${column}` : `e.${column}`,
) as (e: EventFields, v: VisitAttributes, visit?: { session_id: string; user_id: string; classification: string }) => EventRow;

/** A session row: its own fields and the attributes its first event fixed. */
export const sessionRow = rowLiteral(SESSION_COLUMNS, ['s', 'v', 'sign = s.sign'], (column) =>
  isVisitAttribute(column) ? `v.${column}` : column === 'sign' ? 'sign' : `s.${column}`,
) as (s: SessionFields, v: VisitAttributes, sign?: 1 | -1) => SessionRow;
