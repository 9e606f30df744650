import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { badRequest, notFound } from '../../../errors.js';
import { parsePayload } from '../../../management/payload.js';
import { requireTeamSite } from '../../../management/siteAccess.js';
import { addCustomProp, countCustomProps, listCustomProps, removeCustomProp } from '../../../stores/meta/customProps.js';
import { type ManagementDeps, PROVISION, READ, siteIdParameter } from './context.js';

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
    const body = parsePayload(addSchema, request.body);
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

  app.delete('/api/v1/sites/custom-props/:property', PROVISION, async (request) => {
    const { property } = request.params as { property: string };
    const site = await requireTeamSite(db, request.caller, siteIdParameter(request), clock.now());
    if (!(await removeCustomProp(db, site.id, property))) throw notFound(`Custom property "${property}" is not on this site's list.`);
    return { deleted: true };
  });
}
