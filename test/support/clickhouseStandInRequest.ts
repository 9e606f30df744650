import { randomUUID } from 'node:crypto';
import { stringLiteral } from '../../src/stores/clickhouse/inlineParameters.js';

/**
 * Test-only: reads one request of ClickHouse's HTTP interface, as @clickhouse/client 1.x sends it,
 * into the statement the stand-in (clickhouseStandIn.ts) runs on its embedded chDB. Pure, so the
 * wire rules live apart from the server and its queue.
 */

/** What one HTTP request asks the engine to do. */
export interface Statement {
  /** The SQL with its `{name:Type}` parameters bound; an insert's rows follow it on the next line. */
  sql: string;
  database: string;
  /** URL settings as `name = literal`, applied around this statement only, as a server does. */
  settings: Array<[name: string, literal: string]>;
  /** The output format when the SQL names none (`default_format`, else TabSeparated as on a server). */
  format: string;
  queryId: string;
  /** `readonly` from the URL: checked here rather than SET, since a read-only session could not be reset. */
  readonly: boolean;
  /** An INSERT whose body held no rows: a server accepts it and writes nothing. */
  emptyInsert: boolean;
  /** Rows in an insert's body, for X-ClickHouse-Summary (line formats only; 0 otherwise). */
  insertedRows: number;
}

/** A refusal in ClickHouse's own terms, answered as the server would (clickhouseStandIn.ts renders it). */
export class ClickhouseError extends Error {
  constructor(
    readonly code: number,
    readonly type: string,
    message: string,
  ) {
    super(`Code: ${code}. DB::Exception: ${message}. (${type})`);
  }
}

/** URL keys that belong to the HTTP layer, not to the engine's settings. */
const HTTP_KEYS = new Set([
  'query',
  'database',
  'query_id',
  'default_format',
  'session_id',
  'session_timeout',
  'session_check',
  'role',
  'user',
  'password',
  'quota_key',
  'compress',
  'decompress',
  'buffer_size',
  'wait_end_of_query',
  'stacktrace',
  'enable_http_compression',
  'http_zlib_compression_level',
  'http_response_compression_method',
  'http_native_compression_disable_checksumming_on_decompress',
  'send_progress_in_http_headers',
  'http_headers_progress_interval_ms',
  'http_send_progress_interval_ms',
  'http_response_buffer_size',
  'add_http_cors_header',
]);

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PLACEHOLDER = /\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*([^{}]+?)\s*\}/g;

/**
 * The parts a request carries: the URL's, and with `use_multipart_params` a multipart body holding
 * `query` and `param_*` parts.
 */
export function requestFields(url: URL, contentType: string | undefined, body: string): { fields: Map<string, string>; body: string } {
  const fields = new Map(url.searchParams);
  const boundary = /^multipart\/form-data;.*boundary=("?)([^";]+)\1/i.exec(contentType ?? '')?.[2];
  if (boundary === undefined) return { fields, body };
  for (const part of body.split(`--${boundary}`)) {
    const split = part.indexOf('\r\n\r\n');
    const name = /name="([^"]+)"/.exec(part.slice(0, split))?.[1];
    if (split < 0 || name === undefined) continue;
    fields.set(name, part.slice(split + 4).replace(/\r\n$/, ''));
  }
  return { fields, body: '' };
}

/**
 * The statement a request asks for. `knownSettings` holds every setting name the engine accepts, so
 * an unknown one is refused before the shared session is touched (the server answers 115 too).
 */
export function readStatement(
  fields: Map<string, string>,
  headers: Record<string, string | string[] | undefined>,
  body: string,
  knownSettings: Set<string>,
): Statement {
  if (fields.has('session_id')) {
    throw new ClickhouseError(48, 'NOT_IMPLEMENTED', 'The ClickHouse stand-in keeps no HTTP sessions (session_id): every statement stands alone');
  }
  const inUrl = fields.get('query');
  // A server reads the URL's query, then the body: an insert's rows, or the whole statement.
  const text = inUrl === undefined ? body : body.trim() === '' ? inUrl : `${inUrl}\n${body}`;
  if (text.trim() === '') throw new ClickhouseError(62, 'SYNTAX_ERROR', 'Empty query');
  const params = new Map<string, string>();
  const settings: Array<[string, string]> = [];
  let readonly = false;
  for (const [key, value] of fields) {
    if (key.startsWith('param_')) params.set(key.slice('param_'.length), value);
    else if (key === 'readonly') readonly = value !== '0';
    else if (!HTTP_KEYS.has(key)) {
      if (!IDENTIFIER.test(key) || !knownSettings.has(key)) throw new ClickhouseError(115, 'UNKNOWN_SETTING', `Unknown setting '${key}'`);
      settings.push([key, /^-?\d+(\.\d+)?$/.test(value) ? value : stringLiteral(value)]);
    }
  }
  const insert = /^\s*INSERT\s+INTO\s+[^\n]*?\bFORMAT\s+(\w+)\s*$/i.exec(inUrl ?? '');
  const rows = insert ? body.split('\n').filter((line) => line.trim() !== '').length : 0;
  const database = fields.get('database') ?? header(headers, 'x-clickhouse-database') ?? 'default';
  if (!IDENTIFIER.test(database)) throw new ClickhouseError(81, 'UNKNOWN_DATABASE', `Database ${database} does not exist`);
  return {
    // Bound in the query text only: an insert's rows are data, never parameters.
    sql: insert ? `${bindParameters(inUrl ?? '', params)}\n${body}` : bindParameters(text, params),
    database,
    settings,
    format: fields.get('default_format') ?? header(headers, 'x-clickhouse-format') ?? 'TabSeparated',
    queryId: fields.get('query_id') || randomUUID(),
    readonly,
    emptyInsert: insert !== null && rows === 0,
    insertedRows: /EachRow$/i.test(insert?.[1] ?? '') ? rows : 0,
  };
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Binds `{name:Type}` the way a server does: the value's text is parsed as that type. A server
 * reads it in TabSeparated escaping, so a scalar is unescaped first; an Array, Map or Tuple is
 * already in literal form (quoted members), which a cast from its text parses the same way.
 */
export function bindParameters(sql: string, params: Map<string, string>): string {
  return sql.replace(PLACEHOLDER, (_match, name: string, type: string) => {
    const raw = params.get(name);
    if (raw === undefined) throw new ClickhouseError(456, 'UNKNOWN_QUERY_PARAMETER', `Substitution \`${name}\` is not set`);
    const typeLiteral = stringLiteral(type.trim());
    if (raw === '\\N') return `_CAST(NULL, ${typeLiteral})`;
    const text = /^(Array|Map|Tuple)\(/.test(type.trim()) ? raw : unescapeTabSeparated(raw);
    return `_CAST(${stringLiteral(text)}, ${typeLiteral})`;
  });
}

const ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', '0': '\0', a: '\x07', v: '\v', e: '\x1b' };

/** ClickHouse's escaped text: backslash sequences and \xHH; any other escaped character stands for itself. */
export function unescapeTabSeparated(text: string): string {
  return text.replace(/\\(x[0-9A-Fa-f]{2}|[\s\S])/g, (_match, sequence: string) =>
    sequence.length === 3 ? String.fromCharCode(Number.parseInt(sequence.slice(1), 16)) : (ESCAPES[sequence] ?? sequence),
  );
}

/** A statement that writes: refused under `readonly`, as the server refuses it (code 164). */
export function writes(sql: string): boolean {
  return !/^\s*(\(\s*)*(SELECT|WITH|SHOW|DESCRIBE|DESC|EXISTS|EXPLAIN)\b/i.test(sql);
}

/** HTTP status a server gives a failed statement, for the codes the product can meet (others: 500). */
export function httpStatusOf(code: number): number {
  if ([6, 25, 26, 27, 38, 41, 53, 62, 72, 117, 456, 457].includes(code)) return 400;
  if (code === 164) return 403;
  if ([46, 47, 60, 73, 81, 115].includes(code)) return 404;
  if (code === 48) return 501;
  return 500;
}
