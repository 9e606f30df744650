import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Acknowledgement } from '../../contracts/acknowledgements.js';
import type * as contract from '../../contracts/imports.js';
import { importDeletionRefusal, importUploadQuery, type SiteImportList } from '../../contracts/imports.js';
import { importParams, siteIdParams } from '../../contracts/params.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { type ImportRunner, uploadPath } from '../../imports/importRunner.js';
import { parsePayload } from '../../management/payload.js';
import { requireTeamSite } from '../../management/siteAccess.js';
import type { MetaDb } from '../../stores/meta/database.js';
import { createImport, getImport, listSiteImports, type SiteImport, updateImport } from '../../stores/meta/imports.js';
import { singleValued } from '../requestParts.js';
import { receiveUpload, refuseDeclaredOversize } from '../upload.js';

/** An upload's largest size: a whole export, compressed. */
export const IMPORT_UPLOAD_LIMIT = 2 * 1024 ** 3;
const UPLOAD_LIMIT = { limitBytes: IMPORT_UPLOAD_LIMIT, limitText: '2 GiB' };

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const importJson = (item: SiteImport): contract.SiteImport => ({
  id: item.id,
  kind: item.kind,
  file_name: item.fileName,
  status: item.status,
  from: item.fromDate,
  to: item.toDate,
  rows: item.rows,
  files_done: item.filesDone,
  files_total: item.filesTotal,
  error: item.error === null ? null : { message: item.error, file: item.errorFile, line: item.errorLine },
  created_at: iso(item.createdAt),
  finished_at: iso(item.finishedAt),
  // An events import's outcome counts and rejected lines (src/ingest/historicalImport.ts).
  report: item.report === null ? null : JSON.parse(item.report),
});

/**
 * `/api/v1/sites/{site_id}/imports`: upload an export (a ZIP, or one of its CSV files) into the
 * site's imported data, follow the background import, delete it (docs/imports.md).
 */
export function importsRoutes(app: FastifyInstance, deps: { db: MetaDb; clock: Clock; dataDir: string; imports: ImportRunner }): void {
  app.register(async (scope) => {
    // The body is left unread by the framework and streamed from the socket to disk, never held
    // in memory (nor walked by the JSON guards).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    scope.post('/api/v1/sites/:site_id/imports', { config: { scope: 'sites:provision' } }, async (request, reply) => {
      const { site_id } = parsePayload(siteIdParams, request.params);
      const { file_name } = parsePayload(importUploadQuery, singleValued(request.query));
      if (!/\.(zip|csv)$/i.test(file_name)) throw badRequest('invalid_file_name', `"${file_name}" is neither a .zip nor a .csv file.`);
      refuseDeclaredOversize(request.raw, UPLOAD_LIMIT);
      const now = deps.clock.now();
      const site = await requireTeamSite(deps.db, request.caller, site_id, now);
      const record = await createImport(deps.db, { siteId: site.id, fileName: file_name, userId: request.caller.userId }, now);
      let received: number;
      try {
        received = await receiveUpload(request.raw, uploadPath(deps.dataDir, record.id), UPLOAD_LIMIT);
      } catch (error) {
        await updateImport(deps.db, record.id, { status: 'failed', error: 'The upload did not arrive whole.', finishedAt: deps.clock.now() });
        throw error;
      }
      if (received === 0) {
        await updateImport(deps.db, record.id, { status: 'failed', error: 'The upload was empty.', finishedAt: deps.clock.now() });
        throw badRequest('empty_upload', 'The upload is empty: send the ZIP or CSV file as the request body.');
      }
      deps.imports.enqueue(record.id);
      return reply.code(202).send(importJson(record));
    });
  });

  app.get('/api/v1/sites/:site_id/imports', { config: { scope: 'sites:read' } }, async (request): Promise<SiteImportList> => {
    const { site_id } = parsePayload(siteIdParams, request.params);
    const site = await requireTeamSite(deps.db, request.caller, site_id, deps.clock.now());
    return { imports: (await listSiteImports(deps.db, site.id)).map(importJson) };
  });

  const requireImport = async (request: { params: unknown; caller: Parameters<typeof requireTeamSite>[1] }) => {
    const { site_id, import_id } = parsePayload(importParams, request.params);
    const site = await requireTeamSite(deps.db, request.caller, site_id, deps.clock.now());
    const item = await getImport(deps.db, import_id);
    if (!item || item.siteId !== site.id || item.status === 'deleted') throw notFound('Import could not be found.');
    return item;
  };

  app.get(
    '/api/v1/sites/:site_id/imports/:import_id',
    { config: { scope: 'sites:read' } },
    async (request): Promise<contract.SiteImport> => importJson(await requireImport(request)),
  );

  app.delete('/api/v1/sites/:site_id/imports/:import_id', { config: { scope: 'sites:provision' } }, async (request): Promise<Acknowledgement<'deleted'>> => {
    const item = await requireImport(request);
    const refusal = importDeletionRefusal(item);
    if (refusal) throw conflict(refusal.code, refusal.message);
    await deps.imports.deleteRows(item.siteId, item.id);
    await updateImport(deps.db, item.id, { status: 'deleted' });
    return { deleted: true };
  });
}
