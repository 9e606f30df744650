/**
 * TEST-ONLY STAND-IN FOR A CLICKHOUSE SERVER. Never a product mode: the product talks to embedded
 * chDB or to a real ClickHouse server or cluster (CLICKHOUSE_URL), nothing else.
 *
 * No ClickHouse server can be installed on the machines of this project, so tests of the server
 * mode (several nodes sharing one event store) point CLICKHOUSE_URL here: a small HTTP server that
 * answers the part of ClickHouse's HTTP interface @clickhouse/client 1.x uses (statements in the
 * URL or body, `param_<name>` typed parameters, settings as URL parameters, `database`,
 * `default_format`, `query_id`, gzip/deflate/br bodies both ways, `/ping`, the X-ClickHouse-*
 * response headers, errors as `Code: N. DB::Exception: …` with X-ClickHouse-Exception-Code) by
 * running each statement on ONE embedded chDB.
 *
 * What it cannot show, so a test passing here proves nothing about them:
 * - Replicated and Distributed tables and ON CLUSTER DDL: there is one engine and no cluster
 *   (system.clusters is empty), so CLICKHOUSE_CLUSTER cannot be pointed at it.
 * - Real concurrency: statements run one at a time through one queue on one chDB session, so
 *   parallel requests wait for each other instead of racing inside the engine.
 * - HTTP sessions (`session_id` is refused), users, passwords and grants (any credentials pass),
 *   progress headers and streaming: results are buffered whole, so an error is never mid-stream.
 * - A database the URL names is created on first use; a server would answer UNKNOWN_DATABASE.
 *
 * Started on its own with `npm run clickhouse:stand-in -- --port N --data DIR`
 * (scripts/clickhouse-stand-in.mjs builds this file and runs it).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { embeddedEngineArgs } from '../../src/stores/clickhouse/eventStore.js';
import { ClickhouseError, httpStatusOf, readStatement, requestFields, type Statement, writes } from './clickhouseStandInRequest.js';

const require = createRequire(import.meta.url);

export interface ClickhouseStandIn {
  /** e.g. http://127.0.0.1:8123, for CLICKHOUSE_URL (add `/<database>` to name a database). */
  url: string;
  close(): Promise<void>;
}

export interface StandInOptions {
  dataDir: string;
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  memoryLimitBytes?: number;
}

type ChdbResult = { bytes(): Uint8Array; rowsRead: number; bytesRead: number; elapsed: number };

const DECOMPRESS: Record<string, (data: Buffer) => Promise<Buffer>> = {
  gzip: promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress),
};
const COMPRESS: Record<string, (data: Buffer) => Promise<Buffer>> = {
  gzip: promisify(zlib.gzip),
  deflate: promisify(zlib.deflate),
  br: promisify(zlib.brotliCompress),
};

export async function startClickhouseStandIn(options: StandInOptions): Promise<ClickhouseStandIn> {
  const { Session } = require('chdb') as typeof import('chdb');
  const session = new Session(options.dataDir, { connectionArgs: embeddedEngineArgs(options.memoryLimitBytes ?? 1024 * 2 ** 20) });
  // chDB runs one statement at a time per connection, and a SET or USE sticks to it: one queue
  // keeps each request's settings and database its own.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work);
    queue = next.catch(() => undefined);
    return next;
  };
  const run = (sql: string, format = 'TabSeparated'): Promise<ChdbResult> => session.queryAsync(sql, { format });
  const text = async (sql: string) => Buffer.from((await run(sql)).bytes()).toString('utf8');

  const version = (await text('SELECT version()')).trim();
  const timezone = (await text('SELECT timezone()')).trim();
  const knownSettings = new Set((await text('SELECT name FROM system.settings')).split('\n').filter(Boolean));
  let database = 'default';

  const execute = (statement: Statement) =>
    serially(async () => {
      if (statement.readonly && writes(statement.sql)) throw new ClickhouseError(164, 'READONLY', 'Cannot execute query in readonly mode');
      if (statement.database !== database) {
        await run(`CREATE DATABASE IF NOT EXISTS ${statement.database}`);
        await run(`USE ${statement.database}`);
        database = statement.database;
      }
      // Without a session a server forgets SET and USE when the request ends; here they would
      // stay on the shared engine for every later request.
      if (statement.emptyInsert || /^\s*(SET|USE)\b/i.test(statement.sql)) return null;
      if (statement.settings.length > 0) await run(`SET ${statement.settings.map(([name, literal]) => `${name} = ${literal}`).join(', ')}`);
      try {
        return await run(statement.sql, statement.format);
      } finally {
        if (statement.settings.length > 0) await run(`SET ${statement.settings.map(([name]) => `${name} = DEFAULT`).join(', ')}`);
      }
    });

  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    if (url.pathname === '/ping' || (url.pathname === '/' && request.method === 'GET' && !url.searchParams.has('query'))) {
      response.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' }).end('Ok.\n');
      return;
    }
    let queryId = url.searchParams.get('query_id') || '';
    try {
      if (url.pathname !== '/') throw new ClickhouseError(1001, 'STD_EXCEPTION', `The stand-in answers only / and /ping, not ${url.pathname}`);
      const body = await readBody(request);
      const { fields, body: data } = requestFields(url, request.headers['content-type'], body);
      const statement = readStatement(fields, request.headers, data, knownSettings);
      queryId = statement.queryId;
      const started = process.hrtime.bigint();
      const result = await execute(statement);
      const bytes = result ? Buffer.from(result.bytes()) : Buffer.alloc(0);
      const summary = {
        read_rows: String(result?.rowsRead ?? 0),
        read_bytes: String(result?.bytesRead ?? 0),
        written_rows: String(statement.insertedRows),
        written_bytes: String(statement.insertedRows > 0 ? Buffer.byteLength(data) : 0),
        total_rows_to_read: '0',
        result_rows: '0',
        result_bytes: String(bytes.length),
        elapsed_ns: String(process.hrtime.bigint() - started),
      };
      const format = /\bFORMAT\s+(\w+)\s*;?\s*$/i.exec(statement.sql)?.[1] ?? statement.format;
      const headers: Record<string, string> = {
        'content-type': contentType(format),
        'x-clickhouse-query-id': queryId,
        'x-clickhouse-format': format,
        'x-clickhouse-timezone': timezone,
        'x-clickhouse-summary': JSON.stringify(summary),
        'x-clickhouse-server-display-name': 'clickhouse-stand-in',
      };
      const encoding = fields.get('enable_http_compression') === '1' ? acceptedEncoding(request.headers['accept-encoding']) : undefined;
      const compress = encoding === undefined ? undefined : COMPRESS[encoding];
      if (encoding !== undefined && compress !== undefined) {
        response.writeHead(200, { ...headers, 'content-encoding': encoding }).end(await compress(bytes));
      } else {
        response.writeHead(200, headers).end(bytes);
      }
    } catch (error) {
      const { code, message } = asClickhouseError(error);
      // A server's log names every failed statement; tests read this to see what the stand-in refused.
      process.stderr.write(`refused ${queryId || '-'} with code ${code}: ${message.split('\n')[0]?.slice(0, 300)}\n`);
      response
        .writeHead(httpStatusOf(code), {
          'content-type': 'text/plain; charset=UTF-8',
          'x-clickhouse-exception-code': String(code),
          'x-clickhouse-query-id': queryId,
          'x-clickhouse-timezone': timezone,
        })
        .end(`${message} (version ${version})\n`);
    }
  };

  const server = createServer((request, response) => {
    answer(request, response).catch((error: unknown) => response.destroy(error instanceof Error ? error : new Error(String(error))));
  });
  // ClickHouse's own keep-alive timeout; the client reads it from the Keep-Alive header.
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.address}:${address.port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queue;
      session.close();
    },
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const encoding = request.headers['content-encoding'];
  if (encoding === undefined || encoding === 'identity') return raw.toString('utf8');
  const decompress = DECOMPRESS[encoding];
  if (decompress === undefined) throw new ClickhouseError(1001, 'STD_EXCEPTION', `The stand-in cannot read a body encoded as ${encoding}`);
  return (await decompress(raw)).toString('utf8');
}

function acceptedEncoding(accept: string | undefined): string | undefined {
  return (accept ?? '')
    .split(',')
    .map((item) => item.split(';')[0]?.trim() ?? '')
    .find((item) => item in COMPRESS);
}

function contentType(format: string): string {
  if (/^JSON/i.test(format)) return 'application/json; charset=UTF-8';
  if (/^(TabSeparated|TSV)/i.test(format)) return 'text/tab-separated-values; charset=UTF-8';
  if (/^CSV/i.test(format)) return 'text/csv; charset=UTF-8; header=absent';
  return 'text/plain; charset=UTF-8';
}

/** chDB's errors already read `Code: N. DB::Exception: … (NAME)`; anything else becomes one. */
function asClickhouseError(error: unknown): { code: number; message: string } {
  if (error instanceof ClickhouseError) return { code: error.code, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  const code = /^Code: (\d+)\./.exec(message)?.[1];
  if (code !== undefined) return { code: Number(code), message };
  return { code: 1001, message: `Code: 1001. DB::Exception: ${message}. (STD_EXCEPTION)` };
}
