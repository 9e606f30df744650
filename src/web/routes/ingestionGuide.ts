import type { FastifyInstance } from 'fastify';
import { OUTCOME_GUIDE } from '../../ingest/outcomeGuide.js';

/** `GET /app/api/ingestion-outcomes`: the health panel's legend, from the one guide on the server. */
export function ingestionGuideRoutes(scope: FastifyInstance): void {
  scope.get('/app/api/ingestion-outcomes', async () => ({ outcomes: OUTCOME_GUIDE }));
}
