import type { FastifyInstance } from 'fastify';
import { runJourneys } from '../../query/journeys/runJourneys.js';
import { type QueryEngineDeps, runQuery } from '../../query/run/engine.js';

const STATS_ROUTE = { config: { scope: 'stats:read' as const }, bodyLimit: 1024 * 1024 };

/** POST /api/v2/query: every report is this one request; POST /api/v2/journeys: where visitors go next (docs/explore.md). */
export function queryRoutes(app: FastifyInstance, engine: QueryEngineDeps): void {
  app.post('/api/v2/query', STATS_ROUTE, async (request) => runQuery(engine, request.caller.teamId, request.body, { viewerId: request.caller.userId }));
  app.post('/api/v2/journeys', STATS_ROUTE, async (request) => runJourneys(engine, request.caller.teamId, request.body, request.caller.userId));
}
