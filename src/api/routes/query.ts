import { availableParallelism } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { type QueryEngineDeps, runQuery } from '../../query/engine.js';
import { loadExchangeRates } from '../../query/exchangeRates.js';
import { createQueryScheduler } from '../../query/queryScheduler.js';
import type { HttpDeps } from '../httpServer.js';

/** The engine's dependencies from the server's: API-query ClickHouse connection, limits, rates, clock. */
export function queryEngineDeps(deps: Pick<HttpDeps, 'config' | 'clock' | 'meta' | 'events' | 'rollups'>): QueryEngineDeps {
  return {
    db: deps.meta.db,
    rollups: deps.rollups,
    scheduler: createQueryScheduler({
      connections: deps.events.queries,
      perTeam: deps.config.query.perTeam,
      waitingPerTeam: deps.config.query.waitingPerTeam,
      timeoutSeconds: deps.config.query.timeoutSeconds,
      cores: deps.events.kind === 'embedded' ? availableParallelism() : null,
      now: () => performance.now(),
    }),
    limits: deps.config.query,
    cluster: deps.events.cluster,
    rates: loadExchangeRates(deps.config.query.exchangeRatesFile),
    now: () => deps.clock.now(),
  };
}

/** POST /api/v2/query: every report is this one request. */
export function queryRoutes(app: FastifyInstance, engine: QueryEngineDeps): void {
  app.post('/api/v2/query', { config: { scope: 'stats:read' }, bodyLimit: 1024 * 1024 }, async (request) =>
    runQuery(engine, request.caller.teamId, request.body),
  );
}
