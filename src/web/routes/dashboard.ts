import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { FunnelReport } from '../../contracts/funnels.js';
import type { JourneysResponse } from '../../contracts/journeys.js';
import { domainParams } from '../../contracts/params.js';
import type { QueryResponse } from '../../contracts/query.js';
import type { ViewedSite } from '../../contracts/sites.js';
import { parsePayload } from '../../management/payload.js';
import { runJourneys } from '../../query/journeys/runJourneys.js';
import { type QueryEngineDeps, runQuery } from '../../query/run/engine.js';
import { runFunnel } from '../../query/run/funnel.js';
import { sendDashboardZip } from '../dashboardZip.js';
import { requireViewer, type WebDeps } from '../signIn.js';
import { refuseLockedTeam, requireViewerSite } from '../siteAccess.js';
import { describeSite } from '../siteDescription.js';

/** A v2 query (or funnel, or journeys) object; `site_id` is the path's site, and the engine validates the rest. */
const engineBody = z.object({}).catchall(z.unknown());

/**
 * What a dashboard reads, for a signed-in viewer: the site's description, and its numbers through
 * the one query engine (`runQuery`, the same parse, validation and SQL as POST /api/v2/query).
 */
export function dashboardRoutes(scope: FastifyInstance, deps: WebDeps & { engine: QueryEngineDeps }): void {
  /** The engine's request for the path's site, once the viewer may see it and its team is not locked. */
  const engineRequest = async (request: FastifyRequest) => {
    const { domain } = parsePayload(domainParams, request.params);
    const body = parsePayload(engineBody, request.body ?? {});
    const viewer = requireViewer(request);
    const { site } = await requireViewerSite(deps.db, viewer, domain, deps.clock.now());
    await refuseLockedTeam(deps.db, site.teamId);
    return { teamId: site.teamId, viewerId: viewer.userId, body: { ...body, site_id: site.domain } };
  };

  scope.get('/app/api/sites/:domain', async (request): Promise<ViewedSite> => {
    const { domain } = parsePayload(domainParams, request.params);
    const { site, role, guest } = await requireViewerSite(deps.db, requireViewer(request), domain, deps.clock.now());
    return { ...(await describeSite(deps.db, site)), team_id: site.teamId, role, guest };
  });

  scope.post('/app/api/sites/:domain/query', { bodyLimit: 1024 * 1024 }, async (request): Promise<QueryResponse> => {
    const { teamId, viewerId, body } = await engineRequest(request);
    return runQuery(deps.engine, teamId, body, { viewerId });
  });

  scope.post('/app/api/sites/:domain/funnel', { bodyLimit: 64 * 1024 }, async (request): Promise<FunnelReport> => {
    const { teamId, viewerId, body } = await engineRequest(request);
    return runFunnel(deps.engine, teamId, body, viewerId);
  });

  scope.post('/app/api/sites/:domain/journeys', { bodyLimit: 1024 * 1024 }, async (request): Promise<JourneysResponse> => {
    const { teamId, viewerId, body } = await engineRequest(request);
    return runJourneys(deps.engine, teamId, body, viewerId);
  });

  scope.get('/app/api/sites/:domain/dashboard.zip', async (request, reply) => {
    const { domain } = parsePayload(domainParams, request.params);
    const { site } = await requireViewerSite(deps.db, requireViewer(request), domain, deps.clock.now());
    await refuseLockedTeam(deps.db, site.teamId);
    return sendDashboardZip(reply, deps, site, request.query);
  });
}
