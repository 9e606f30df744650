import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock.js';
import { AppError, notFound } from '../../errors.js';
import { importEvents } from '../../ingest/historicalImport.js';
import type { Ingestion } from '../../ingest/ingestion.js';
import type { MetaDb } from '../../stores/meta/database.js';
import { findTeamSite } from '../../stores/meta/sites.js';
import { singleValued } from '../requestParts.js';

const IMPORT_BODY_LIMIT = 256 * 1024 * 1024;

/** `POST /api/v1/sites/{site_id}/events/import`: NDJSON raw events through the live pipeline. */
export function importRoutes(app: FastifyInstance, deps: { db: MetaDb; clock: Clock; ingestion: Ingestion }): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: IMPORT_BODY_LIMIT }, (_request, body, done) => done(null, body));
    scope.post('/api/v1/sites/:site_id/events/import', { config: { scope: 'sites:provision' }, bodyLimit: IMPORT_BODY_LIMIT }, async (request) => {
      const siteName = singleValued(request.params).site_id ?? '';
      const site = await findTeamSite(deps.db, request.caller.teamId, siteName);
      if (!site) throw notFound(`There is no site ${siteName} for this API key.`);
      const report = await importEvents(deps.ingestion, site.domain, typeof request.body === 'string' ? request.body : '', deps.clock.now());
      await deps.ingestion.buffer.flush();
      if (deps.ingestion.buffer.pendingEvents > 0) {
        throw new AppError(
          503,
          'store_unavailable',
          'The events were accepted but the event store is not taking writes right now; they stay queued and will be written when it recovers.',
        );
      }
      return { site_id: site.domain, stored: true, ...report };
    });
  });
}
