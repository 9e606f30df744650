import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { roleIn, SITE_EDITORS } from '../../accounts/roles.js';
import { AppError } from '../../errors.js';
import { exportQuerySchema, exportRange } from '../../export/exportRequest.js';
import { sendSiteExport, siteFirstEventAt } from '../../export/exportResponse.js';
import { parsePayload } from '../../management/payload.js';
import type { EventStore } from '../../stores/clickhouse/eventStore.js';
import { requireViewer, type WebDeps } from '../signIn.js';
import { requireViewerSite } from '../siteAccess.js';

const params = z.strictObject({ domain: z.string().min(1).max(300) });

/**
 * The export download of the site settings screen. Unlike the API route it works in every account
 * state, locked included (spec: export "works in every account state"); `svc export` uses it too.
 */
export function webExportRoutes(scope: FastifyInstance, deps: WebDeps & { events: EventStore }): void {
  scope.get('/app/api/sites/:domain/export', async (request, reply) => {
    const { domain } = parsePayload(params, request.params);
    const query = parsePayload(exportQuerySchema, request.query ?? {});
    const now = deps.clock.now();
    const { site, role, guest } = await requireViewerSite(deps.db, requireViewer(request), domain, now);
    if (guest || !roleIn(role, SITE_EDITORS))
      throw new AppError(403, 'forbidden_role', `Exports are for the site's editors, admins and owner; you are a ${role}.`);
    return sendSiteExport(reply, deps, site, exportRange(query, site, await siteFirstEventAt(deps.events, site.id), now));
  });
}
