import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock.js';
import { exportRangeQuery } from '../../contracts/exports.js';
import { siteIdParams } from '../../contracts/params.js';
import { exportRange } from '../../export/exportRequest.js';
import { sendSiteExport, siteFirstDataAt } from '../../export/exportResponse.js';
import { parsePayload } from '../../management/payload.js';
import { requireTeamSite } from '../../management/siteAccess.js';
import type { EventStore } from '../../stores/clickhouse/eventStore.js';
import type { MetaDb } from '../../stores/meta/database.js';

/** `GET /api/v1/sites/{site_id}/export?from&to`: the site's export ZIP (docs/export.md). */
export function exportRoutes(app: FastifyInstance, deps: { db: MetaDb; clock: Clock; events: EventStore }): void {
  app.get('/api/v1/sites/:site_id/export', { config: { scope: 'sites:read' } }, async (request, reply) => {
    const { site_id } = parsePayload(siteIdParams, request.params);
    const query = parsePayload(exportRangeQuery, request.query ?? {});
    const now = deps.clock.now();
    const site = await requireTeamSite(deps.db, request.caller, site_id, now);
    return sendSiteExport(reply, deps, site, exportRange(query, site, await siteFirstDataAt(deps.events, site), now));
  });
}
