import type { FastifyInstance } from 'fastify';
import type { Acknowledgement } from '../../../contracts/acknowledgements.js';
import { type SharedLink, type SharedLinkList, sharedLinkCreation } from '../../../contracts/sharedLinks.js';
import { notFound } from '../../../errors.js';
import { parsePayload } from '../../../management/payload.js';
import { findOrCreateSharedLink, sharedLinkJson } from '../../../management/sharedLinks.js';
import { requireTeamSite } from '../../../management/siteAccess.js';
import { deleteSharedLink, listSharedLinks } from '../../../stores/meta/sharedLinks.js';
import { singleValued } from '../../requestParts.js';
import { bodyWithSiteId, type ManagementDeps, PROVISION, READ, siteIdParameter } from './context.js';

export function sharedLinkRoutes(app: FastifyInstance, deps: ManagementDeps): void {
  const { db, clock, baseUrl } = deps;

  app.get('/api/v1/sites/shared-links', READ, async (request): Promise<SharedLinkList> => {
    const site = await requireTeamSite(db, request.caller, siteIdParameter(request), clock.now());
    return { shared_links: (await listSharedLinks(db, site.id)).map((link) => sharedLinkJson(baseUrl, site.domain, link)) };
  });

  app.put('/api/v1/sites/shared-links', PROVISION, async (request): Promise<SharedLink> => {
    const body = parsePayload(sharedLinkCreation, bodyWithSiteId(request));
    const now = clock.now();
    const site = await requireTeamSite(db, request.caller, body.site_id, now);
    const { link } = await findOrCreateSharedLink(db, { siteId: site.id, name: body.name, password: body.password }, now);
    return sharedLinkJson(baseUrl, site.domain, link);
  });

  app.delete('/api/v1/sites/shared-links/:name', PROVISION, async (request): Promise<Acknowledgement<'deleted'>> => {
    const name = singleValued(request.params).name ?? '';
    const site = await requireTeamSite(db, request.caller, siteIdParameter(request), clock.now());
    if (!(await deleteSharedLink(db, site.id, name))) throw notFound(`This site has no shared link named "${name}".`);
    return { deleted: true };
  });
}
