import { createReadStream } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Acknowledgement } from '../../contracts/acknowledgements.js';
import { exportRangeQuery, type PreparedExport, type PreparedExportList } from '../../contracts/exports.js';
import { domainParams, exportJobParams } from '../../contracts/params.js';
import { roleIn, SITE_EDITORS } from '../../contracts/roles.js';
import { AppError, notFound } from '../../errors.js';
import type { ExportJob, ExportJobs } from '../../export/exportJobs.js';
import { exportRange } from '../../export/exportRequest.js';
import { sendSiteExport, siteFirstDataAt } from '../../export/exportResponse.js';
import { parsePayload } from '../../management/payload.js';
import type { EventStore } from '../../stores/clickhouse/eventStore.js';
import { requireViewer, type WebDeps } from '../signIn.js';
import { requireViewerSite } from '../siteAccess.js';

const jobJson = (domain: string, job: ExportJob): PreparedExport => ({
  id: job.id,
  status: job.status,
  from: job.range.from,
  to: job.range.to,
  file_name: job.fileName,
  bytes: job.bytes,
  created_at: new Date(job.createdAt).toISOString(),
  finished_at: job.finishedAt === null ? null : new Date(job.finishedAt).toISOString(),
  error: job.error,
  download_url: job.status === 'ready' ? `/app/api/sites/${encodeURIComponent(domain)}/exports/${job.id}` : null,
});

/**
 * The export of the site settings screen: a direct download, or for a large site an export
 * prepared in the background and downloaded when ready. Unlike the API route it works in every
 * account state, locked included (spec: export "works in every account state"); `svc export`
 * uses the direct download too. A prepared export is recorded here and written by a worker: this
 * node's own with the worker role, another's otherwise (`exports`, built by src/app.ts).
 */
export function webExportRoutes(scope: FastifyInstance, deps: WebDeps & { events: EventStore; exports: ExportJobs }): void {
  const jobs = deps.exports;

  const exporterSite = async (request: FastifyRequest, domain: string) => {
    const { site, role, guest } = await requireViewerSite(deps.db, requireViewer(request), domain, deps.clock.now());
    if (guest || !roleIn(role, SITE_EDITORS))
      throw new AppError(403, 'forbidden_role', `Exports are for the site's editors, admins and owner; you are a ${role}.`);
    return site;
  };
  const rangeOf = async (input: unknown, site: Awaited<ReturnType<typeof exporterSite>>) =>
    exportRange(parsePayload(exportRangeQuery, input ?? {}), site, await siteFirstDataAt(deps.events, site), deps.clock.now());

  scope.get('/app/api/sites/:domain/export', async (request, reply) => {
    const site = await exporterSite(request, parsePayload(domainParams, request.params).domain);
    return sendSiteExport(reply, deps, site, await rangeOf(request.query, site));
  });

  scope.post('/app/api/sites/:domain/exports', async (request, reply) => {
    const site = await exporterSite(request, parsePayload(domainParams, request.params).domain);
    const job = jobs.start(site, await rangeOf(request.body, site));
    reply.code(202);
    return jobJson(site.domain, job);
  });

  scope.get('/app/api/sites/:domain/exports', async (request): Promise<PreparedExportList> => {
    const site = await exporterSite(request, parsePayload(domainParams, request.params).domain);
    return { exports: jobs.list(site.id).map((job) => jobJson(site.domain, job)) };
  });

  scope.get('/app/api/sites/:domain/exports/:id', async (request, reply) => {
    const { domain, id } = parsePayload(exportJobParams, request.params);
    const site = await exporterSite(request, domain);
    const ready = jobs.ready(site.id, id);
    if (!ready) throw notFound('There is no such prepared export (it may still be in preparation, or have expired after a day).');
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${ready.job.fileName}"`)
      .header('cache-control', 'no-store')
      .send(createReadStream(ready.path));
  });

  scope.delete('/app/api/sites/:domain/exports/:id', async (request): Promise<Acknowledgement<'deleted'>> => {
    const { domain, id } = parsePayload(exportJobParams, request.params);
    const site = await exporterSite(request, domain);
    if (!jobs.remove(site.id, id)) throw notFound('There is no such prepared export.');
    return { deleted: true };
  });
}
