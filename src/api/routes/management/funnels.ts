import type { FastifyInstance } from 'fastify';
import type { Acknowledgement } from '../../../contracts/acknowledgements.js';
import { type Funnel, type FunnelList, type FunnelReportAnswer, funnelPayload, funnelReportQuery } from '../../../contracts/funnels.js';
import { notFound } from '../../../errors.js';
import { findOrCreateFunnel, funnelJson } from '../../../management/funnels.js';
import { parseId, parsePayload } from '../../../management/payload.js';
import { requireTeamSite } from '../../../management/siteAccess.js';
import { runFunnel } from '../../../query/run/funnel.js';
import { deleteFunnel, listFunnels } from '../../../stores/meta/funnels.js';
import { listSiteGoals } from '../../../stores/meta/goals.js';
import { singleValued } from '../../requestParts.js';
import { bodyWithSiteId, type ManagementDeps, PROVISION, READ, siteIdParameter } from './context.js';

/** Funnels are not in Plausible's public API; these follow the goals routes' style. */
export function funnelRoutes(app: FastifyInstance, deps: ManagementDeps): void {
  const { db, clock } = deps;

  app.get('/api/v1/sites/funnels', READ, async (request): Promise<FunnelList> => {
    const site = await requireTeamSite(db, request.caller, siteIdParameter(request), clock.now());
    const [funnels, goals] = await Promise.all([listFunnels(db, site.id), listSiteGoals(db, site.id)]);
    return { funnels: funnels.map((funnel) => funnelJson(funnel, goals)) };
  });

  app.put('/api/v1/sites/funnels', PROVISION, async (request): Promise<Funnel> => {
    const body = parsePayload(funnelPayload, bodyWithSiteId(request));
    const now = clock.now();
    const site = await requireTeamSite(db, request.caller, body.site_id, now);
    const { funnel } = await findOrCreateFunnel(db, site.id, body, now);
    return funnelJson(funnel, await listSiteGoals(db, site.id));
  });

  // A report reads statistics, so it takes the stats scope like the query API.
  app.get('/api/v1/sites/funnels/:funnel_id/report', { config: { scope: 'stats:read' } }, async (request): Promise<FunnelReportAnswer> => {
    const funnelId = parseId(singleValued(request.params).funnel_id, 'The funnel id');
    const query = parsePayload(funnelReportQuery, request.query ?? {});
    const site = await requireTeamSite(db, request.caller, query.site_id, clock.now());
    const funnel = (await listFunnels(db, site.id)).find((f) => f.id === funnelId);
    if (!funnel) throw notFound('Funnel could not be found.');
    const report = await runFunnel(deps.engine, request.caller.teamId, { site_id: site.domain, funnel: funnel.name, date_range: [query.from, query.to] });
    return { funnel: { id: funnel.id, name: funnel.name }, from: query.from, to: query.to, ...report };
  });

  app.delete('/api/v1/sites/funnels/:funnel_id', PROVISION, async (request): Promise<Acknowledgement<'deleted'>> => {
    const funnelId = parseId(singleValued(request.params).funnel_id, 'The funnel id');
    const site = await requireTeamSite(db, request.caller, siteIdParameter(request), clock.now());
    if (!(await deleteFunnel(db, site.id, funnelId))) throw notFound('Funnel could not be found.');
    return { deleted: true };
  });
}
