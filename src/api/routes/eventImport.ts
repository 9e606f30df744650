import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock.js';
import type { EventImportOutcome, ImportReport } from '../../contracts/imports.js';
import { siteIdParams } from '../../contracts/params.js';
import { AppError } from '../../errors.js';
import { type ImportRunner, uploadPath } from '../../imports/importRunner.js';
import { MAX_IMPORT_LINES, tooManyLines } from '../../ingest/historicalImport.js';
import type { Ingestion } from '../../ingest/ingestion.js';
import { parsePayload } from '../../management/payload.js';
import { requireTeamSite } from '../../management/siteAccess.js';
import type { MetaDb } from '../../stores/meta/database.js';
import { createImport, getImport, updateImport } from '../../stores/meta/imports.js';
import { receiveUpload } from '../upload.js';
import { importJson } from './imports.js';

const UPLOAD_LIMIT = { limitBytes: 1024 ** 3, limitText: '1 GiB' };

/**
 * `POST /api/v1/sites/{site_id}/events/import`: NDJSON raw events through the live pipeline, as a
 * background import (docs/collecting-events.md). The body streams to disk; the answer waits for
 * the import's report, or with `Prefer: respond-async` (RFC 7240) comes at once as a 202 with the
 * import to follow at `/api/v1/sites/{site_id}/imports/{id}`.
 */
export function importRoutes(app: FastifyInstance, deps: { db: MetaDb; clock: Clock; ingestion: Ingestion; dataDir: string; imports: ImportRunner }): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    scope.post('/api/v1/sites/:site_id/events/import', { config: { scope: 'sites:provision' } }, async (request, reply) => {
      const { site_id } = parsePayload(siteIdParams, request.params);
      const now = deps.clock.now();
      const site = await requireTeamSite(deps.db, request.caller, site_id, now);
      const record = await createImport(deps.db, { siteId: site.id, fileName: 'events.ndjson', userId: request.caller.userId, kind: 'events' }, now);
      // Lines are counted as they arrive, so an oversized file is refused before it is stored whole.
      let newlines = 0;
      try {
        await receiveUpload(request.raw, uploadPath(deps.dataDir, record.id), {
          ...UPLOAD_LIMIT,
          check: (chunk) => {
            for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) newlines += 1;
            if (newlines > MAX_IMPORT_LINES) throw tooManyLines();
          },
        });
      } catch (error) {
        await updateImport(deps.db, record.id, { status: 'failed', error: 'The upload did not arrive whole.', finishedAt: deps.clock.now() });
        throw error;
      }
      const ran = deps.imports.enqueue(record.id);
      if (/\brespond-async\b/i.test(String(request.headers.prefer ?? ''))) return reply.code(202).send(importJson(record));
      await ran;
      const done = await getImport(deps.db, record.id);
      if (done?.status === 'failed') throw new AppError(400, 'import_failed', done.error ?? 'The import failed.');
      if (done?.status !== 'completed' || done.report === null) {
        throw new AppError(503, 'import_pending', `The import has not run yet; follow it at /api/v1/sites/${site.domain}/imports/${record.id}.`);
      }
      if (deps.ingestion.buffer.pendingEvents > 0) {
        throw new AppError(
          503,
          'store_unavailable',
          'The events were accepted but the event store is not taking writes right now; they stay queued and will be written when it recovers.',
        );
      }
      const report: ImportReport = JSON.parse(done.report);
      return { site_id: site.domain, stored: true, import_id: record.id, ...report } satisfies EventImportOutcome;
    });
  });
}
