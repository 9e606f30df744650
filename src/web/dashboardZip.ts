import type { FastifyReply } from 'fastify';
import { dashboardDownloadQuery } from '../contracts/dashboardDownload.js';
import { dashboardZip } from '../export/dashboardFiles.js';
import { parsePayload } from '../management/payload.js';
import { type QueryEngineDeps, runQuery } from '../query/run/engine.js';
import type { MetaDb } from '../stores/meta/database.js';
import type { Site } from '../stores/meta/sites.js';
import { describeSite } from './siteDescription.js';

/**
 * Sends the dashboard's ZIP download (docs/dashboard.md "Download"): the query string is the view,
 * every figure comes from the one engine, for a signed-in viewer and a shared link alike.
 */
export async function sendDashboardZip(reply: FastifyReply, deps: { db: MetaDb; engine: QueryEngineDeps }, site: Site, query: unknown) {
  const view = parsePayload(dashboardDownloadQuery, query ?? {});
  const description = await describeSite(deps.db, site);
  const { zip, fileName } = await dashboardZip(
    (body) => runQuery(deps.engine, site.teamId, { ...body, site_id: site.domain }),
    { domain: site.domain, hasGoals: description.goals.length > 0, customProperties: description.custom_properties },
    view,
  );
  return reply
    .header('content-type', 'application/zip')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .send(zip);
}
