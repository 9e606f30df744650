import type { FastifyInstance } from 'fastify';
import type { OutcomeGuideList } from '../../contracts/ingestion.js';
import { OUTCOME_GUIDE } from '../../ingest/outcomeGuide.js';

/** `GET /app/api/ingestion-outcomes`: the health panel's legend, from the one guide on the server. */
export function ingestionGuideRoutes(scope: FastifyInstance): void {
  scope.get('/app/api/ingestion-outcomes', async (): Promise<OutcomeGuideList> => ({ outcomes: OUTCOME_GUIDE }));
}
