import type { ClickHouseClient } from '@clickhouse/client';
import type { QueryEngineDeps } from '../../src/query/run/engine.js';

/**
 * The engine's deps with every statement that reads a roll-up refused for memory (code 241, as a
 * pages breakdown of 100 M events gives); raw statements run on the real connection.
 */
export function refusingRollups(deps: QueryEngineDeps): QueryEngineDeps {
  const refuse = (client: ClickHouseClient): ClickHouseClient =>
    new Proxy(client, {
      get: (target, name) =>
        name === 'query'
          ? (params: { query: string }) => {
              if (/\b(daily|window)_/.test(params.query))
                throw Object.assign(new Error('Memory limit exceeded'), { code: '241', type: 'MEMORY_LIMIT_EXCEEDED' });
              return target.query(params as never);
            }
          : Reflect.get(target, name),
    });
  return throughClient(deps, refuse);
}

/** The engine's deps with every statement going through `wrap` of the real connection. */
export function throughClient(deps: QueryEngineDeps, wrap: (client: ClickHouseClient) => ClickHouseClient): QueryEngineDeps {
  const scheduler = deps.scheduler;
  return {
    ...deps,
    scheduler: {
      ...scheduler,
      run: ((teamId, work) => scheduler.run(teamId, (client, left, threads) => work(wrap(client), left, threads))) as typeof scheduler.run,
    },
  };
}

/** The engine's deps recording every statement it reads with: its SQL, and its parameters in `params`. */
export function watchingStatements(deps: QueryEngineDeps): { deps: QueryEngineDeps; statements: string[]; params: Record<string, unknown>[] } {
  const statements: string[] = [];
  const params: Record<string, unknown>[] = [];
  const watch = (client: ClickHouseClient): ClickHouseClient =>
    new Proxy(client, {
      get: (target, name) =>
        name === 'query'
          ? (query: { query: string; query_params?: Record<string, unknown> }) => {
              statements.push(query.query);
              params.push(query.query_params ?? {});
              return target.query(query as never);
            }
          : Reflect.get(target, name),
    });
  return { deps: throughClient(deps, watch), statements, params };
}
