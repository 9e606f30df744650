import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { badRequest } from '../../../errors.js';
import { parsePayload } from '../../../management/payload.js';
import { requireTeamSite } from '../../../management/siteAccess.js';
import { addCustomProp, countCustomProps, listCustomProps, removeCustomProp } from '../../../stores/meta/customProps.js';
import { singleValued } from '../../requestParts.js';
import { bodyWithSiteId, type ManagementDeps, PROVISION, READ, siteIdParameter } from './context.js';

/** Plausible's limits on the allow-list. */
export const MAX_CUSTOM_PROPS = 300;
export const MAX_CUSTOM_PROP_LENGTH = 300;

const addSchema = z.strictObject({ site_id: z.string(), property: z.string().min(1).max(MAX_CUSTOM_PROP_LENGTH) });

export function customPropRoutes(app: FastifyInstance, deps: ManagementDeps): void {
  const { db, clock } = deps;

  app.get('/api/v1/sites/custom-props', READ, async (request) => {
    const site = await requireTeamSite(db, request.caller, siteIdParameter(request), clock.now());
    return { custom_properties: (await listCustomProps(db, site.id)).map((property) => ({ property })) };
  });

  app.put('/api/v1/sites/custom-props', PROVISION, async (request) => {
    const body = parsePayload(addSchema, bodyWithSiteId(request));
    const now = clock.now();
    const site = await requireTeamSite(db, request.caller, body.site_id, now);
    const property = body.property.trim();
    if (property.length === 0) throw badRequest('invalid_payload', 'Field "property" must not be blank.');
    const listed = await listCustomProps(db, site.id);
    if (!listed.includes(property) && (await countCustomProps(db, site.id)) >= MAX_CUSTOM_PROPS) {
      throw badRequest('too_many_custom_props', `A site can allow at most ${MAX_CUSTOM_PROPS} custom properties; remove one first.`);
    }
    await addCustomProp(db, site.id, property, now);
    return { created: true };
  });

  // The rest of the path is the name, which may hold slashes (Plausible's `*property`).
  app.delete('/api/v1/sites/custom-props/*', PROVISION, async (request) => {
    const property = singleValued(request.params)['*'] ?? '';
    const site = await requireTeamSite(db, request.caller, siteIdParameter(request), clock.now());
    // As in Plausible, a name not on the list is already removed: repeating a delete succeeds.
    await removeCustomProp(db, site.id, property);
    return { deleted: true };
  });
}
