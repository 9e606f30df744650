import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { funnelJson } from '../../management/funnels.js';
import { goalJson } from '../../management/goals.js';
import { parsePayload } from '../../management/payload.js';
import { type QueryEngineDeps, runQuery } from '../../query/engine.js';
import { runFunnel } from '../../query/funnel.js';
import { listCustomProps } from '../../stores/meta/customProps.js';
import { listFunnels } from '../../stores/meta/funnels.js';
import { listSiteGoals } from '../../stores/meta/goals.js';
import { getTeam } from '../../stores/meta/teams.js';
import { requireViewer, type WebDeps } from '../signIn.js';
import { refuseLockedTeam, requireViewerSite } from '../siteAccess.js';

const siteParams = z.strictObject({ domain: z.string().min(1).max(300) });

/** A v2 query (or funnel) object; `site_id` is the path's site, and the engine validates the rest. */
const engineBody = z.object({}).catchall(z.unknown());

/**
 * What a dashboard reads, for a signed-in viewer: the site's description, and its numbers through
 * the one query engine (`runQuery`, the same parse, validation and SQL as POST /api/v2/query).
 */
export function dashboardRoutes(scope: FastifyInstance, deps: WebDeps & { engine: QueryEngineDeps }): void {
  scope.get('/app/api/sites/:domain', async (request) => {
    const { domain } = parsePayload(siteParams, request.params);
    const { site, role, guest } = await requireViewerSite(deps.db, requireViewer(request), domain, deps.clock.now());
    const [team, goals, funnels, props] = await Promise.all([
      getTeam(deps.db, site.teamId),
      listSiteGoals(deps.db, site.id),
      listFunnels(deps.db, site.id),
      listCustomProps(deps.db, site.id),
    ]);
    return {
      domain: site.domain,
      timezone: site.timezone,
      // The dashboard opens a site added today on today (nothing older to show), as Plausible does.
      created_at: new Date(site.createdAt).toISOString(),
      team_id: site.teamId,
      role,
      guest,
      locked: team?.lockedAt != null,
      locked_reason: team?.lockedReason ?? null,
      goals: goals.map((goal) => goalJson(goal, site.domain)),
      funnels: funnels.map((funnel) => funnelJson(funnel, goals)),
      custom_properties: props,
    };
  });

  scope.post('/app/api/sites/:domain/query', { bodyLimit: 1024 * 1024 }, async (request) => {
    const { domain } = parsePayload(siteParams, request.params);
    const body = parsePayload(engineBody, request.body ?? {});
    const { site } = await requireViewerSite(deps.db, requireViewer(request), domain, deps.clock.now());
    await refuseLockedTeam(deps.db, site.teamId);
    return runQuery(deps.engine, site.teamId, { ...body, site_id: site.domain });
  });

  scope.post('/app/api/sites/:domain/funnel', { bodyLimit: 64 * 1024 }, async (request) => {
    const { domain } = parsePayload(siteParams, request.params);
    const body = parsePayload(engineBody, request.body ?? {});
    const { site } = await requireViewerSite(deps.db, requireViewer(request), domain, deps.clock.now());
    await refuseLockedTeam(deps.db, site.teamId);
    return runFunnel(deps.engine, site.teamId, { ...body, site_id: site.domain });
  });
}
