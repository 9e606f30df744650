import { badRequest } from '../errors.js';
import { addCustomProp, countCustomProps, listCustomProps } from '../stores/meta/customProps.js';
import type { MetaDb } from '../stores/meta/database.js';

/** Plausible's limit on the allow-list (a name's length is in src/contracts/customProperties.ts). */
export const MAX_CUSTOM_PROPS = 300;

/** Puts a property on a site's allow-list; adding one already listed succeeds and changes nothing. */
export async function allowCustomProp(db: MetaDb, siteId: number, input: string, now: number): Promise<void> {
  const property = input.trim();
  if (property.length === 0) throw badRequest('invalid_payload', 'Field "property" must not be blank.');
  const listed = await listCustomProps(db, siteId);
  if (!listed.includes(property) && (await countCustomProps(db, siteId)) >= MAX_CUSTOM_PROPS) {
    throw badRequest('too_many_custom_props', `A site can allow at most ${MAX_CUSTOM_PROPS} custom properties; remove one first.`);
  }
  await addCustomProp(db, siteId, property, now);
}
