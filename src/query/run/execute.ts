import type { ClickHouseClient } from '@clickhouse/client';
import type { QueryConfig } from '../../config/config.js';
import { AppError, badRequest } from '../../errors.js';
import type { QueryScheduler } from './queryScheduler.js';

export type Row = Record<string, unknown>;

/**
 * Run one analytics statement with its own limits in its SETTINGS clause (per-query client
 * settings would stick to a chDB connection), and turn the engine's refusals into sentences.
 */
export async function runSql(
  client: ClickHouseClient,
  sql: string,
  params: Record<string, unknown>,
  limits: QueryConfig,
  secondsLeft = limits.timeoutSeconds,
  threads: number | null = null,
): Promise<Row[]> {
  // timeout_overflow_mode = throw: a statement over its time fails rather than answering part of its rows.
  const share = threads === null ? '' : `, max_threads = ${threads}`;
  const settings = `SETTINGS max_execution_time = ${secondsLeft}, timeout_overflow_mode = 'throw', max_memory_usage = ${limits.memoryLimitBytes}, join_use_nulls = 1${share}`;
  try {
    const result = await client.query({ query: `${sql}\n${settings}`, query_params: params, format: 'JSONEachRow' });
    return await result.json<Row>();
  } catch (error) {
    throw translateEngineError(error, limits);
  }
}

function translateEngineError(error: unknown, limits: QueryConfig): unknown {
  const { code, type } = (error ?? {}) as { code?: string; type?: string };
  if (code === '159' || type === 'TIMEOUT_EXCEEDED') {
    return new AppError(
      503,
      'query_timeout',
      `The query took longer than its ${limits.timeoutSeconds}-second limit; narrow the date range, add filters or allow sampling.`,
    );
  }
  if (code === '241' || type === 'MEMORY_LIMIT_EXCEEDED') {
    return new AppError(
      503,
      'query_too_large',
      'The query needed more memory than one query may use; narrow the date range, reduce dimensions or allow sampling.',
    );
  }
  // Many long filter values, each within its bound, can still make a statement longer than the engine parses.
  if (error instanceof Error && error.message.startsWith('Max query size exceeded')) {
    return badRequest('query_too_long', "The query's filters make a statement longer than the engine reads; use fewer or shorter filter values.");
  }
  if (code === '427' || type === 'CANNOT_COMPILE_REGEXP') {
    return badRequest('invalid_filter', 'A regular expression in the filters is not valid RE2 syntax.');
  }
  return error;
}

/** JSON numbers, 64-bit integers (sent as strings) and NaN/Infinity all as a finite number or null. */
export function toMetricValue(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) ? number : null;
}

/** One team's statements: each waits its turn for a query connection (src/query/run/queryScheduler.ts). */
export type Statements = (sql: string, params: Record<string, unknown>) => Promise<Row[]>;

export function teamStatements(scheduler: QueryScheduler<ClickHouseClient>, teamId: number, limits: QueryConfig): Statements {
  return (sql, params) => scheduler.run(teamId, (client, secondsLeft, threads) => runSql(client, sql, params, limits, secondsLeft, threads));
}
