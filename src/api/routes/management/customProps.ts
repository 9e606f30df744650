import type { FastifyInstance } from 'fastify';
import type { Acknowledgement } from '../../../contracts/acknowledgements.js';
import { type CustomPropertyList, customPropertyAddition } from '../../../contracts/customProperties.js';
import { allowCustomProp } from '../../../management/customProps.js';
import { parsePayload } from '../../../management/payload.js';
import { requireTeamSite } from '../../../management/siteAccess.js';
import { listCustomProps, removeCustomProp } from '../../../stores/meta/customProps.js';
import { singleValued } from '../../requestParts.js';
import { bodyWithSiteId, type ManagementDeps, PROVISION, READ, siteIdParameter } from './context.js';

export function customPropRoutes(app: FastifyInstance, deps: ManagementDeps): void {
  const { db, clock } = deps;

  app.get('/api/v1/sites/custom-props', READ, async (request): Promise<CustomPropertyList> => {
    const site = await requireTeamSite(db, request.caller, siteIdParameter(request), clock.now());
    return { custom_properties: (await listCustomProps(db, site.id)).map((property) => ({ property })) };
  });

  app.put('/api/v1/sites/custom-props', PROVISION, async (request): Promise<Acknowledgement<'created'>> => {
    const body = parsePayload(customPropertyAddition, bodyWithSiteId(request));
    const now = clock.now();
    const site = await requireTeamSite(db, request.caller, body.site_id, now);
    await allowCustomProp(db, site.id, body.property, now);
    return { created: true };
  });

  // The rest of the path is the name, which may hold slashes (Plausible's `*property`).
  app.delete('/api/v1/sites/custom-props/*', PROVISION, async (request): Promise<Acknowledgement<'deleted'>> => {
    const property = singleValued(request.params)['*'] ?? '';
    const site = await requireTeamSite(db, request.caller, siteIdParameter(request), clock.now());
    // As in Plausible, a name not on the list is already removed: repeating a delete succeeds.
    await removeCustomProp(db, site.id, property);
    return { deleted: true };
  });
}
