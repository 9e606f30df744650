import { availableParallelism } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config/config.js';
import { loadExchangeRates } from '../../query/exchangeRates.js';
import { runJourneys } from '../../query/journeys/runJourneys.js';
import { openRollupReads } from '../../query/rollupReads/rollupReads.js';
import { type QueryEngineDeps, runQuery } from '../../query/run/engine.js';
import { createQueryScheduler } from '../../query/run/queryScheduler.js';
import { eventCountsCache } from '../../query/run/sampling.js';
import type { Rollups } from '../../rollups/rollups.js';
import type { EventStore } from '../../stores/clickhouse/eventStore.js';
import type { MetaStore } from '../../stores/meta/database.js';

/** The parts of the server's dependencies (src/api/httpServer.ts HttpDeps) the engine is built from. */
export interface QueryEngineSources {
  config: Config;
  clock: Clock;
  meta: MetaStore;
  events: EventStore;
  rollups: Rollups;
}

/** The engine's dependencies from the server's: API-query ClickHouse connection, limits, rates, clock. */
export function queryEngineDeps(deps: QueryEngineSources): QueryEngineDeps {
  return {
    db: deps.meta.db,
    rollups: deps.rollups,
    rollupReads: openRollupReads(),
    eventCounts: eventCountsCache(),
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

const STATS_ROUTE = { config: { scope: 'stats:read' as const }, bodyLimit: 1024 * 1024 };

/** POST /api/v2/query: every report is this one request; POST /api/v2/journeys: where visitors go next (docs/explore.md). */
export function queryRoutes(app: FastifyInstance, engine: QueryEngineDeps): void {
  app.post('/api/v2/query', STATS_ROUTE, async (request) => runQuery(engine, request.caller.teamId, request.body, { viewerId: request.caller.userId }));
  app.post('/api/v2/journeys', STATS_ROUTE, async (request) => runJourneys(engine, request.caller.teamId, request.body, request.caller.userId));
}
