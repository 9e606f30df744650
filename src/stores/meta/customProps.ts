import type { MetaDb } from './database.js';

/** The site's allow-list of custom property names, sorted. */
export async function listCustomProps(db: MetaDb, siteId: number): Promise<string[]> {
  const rows = await db.selectFrom('custom_props').select('property').where('site_id', '=', siteId).orderBy('property').execute();
  return rows.map((r) => r.property);
}

export async function countCustomProps(db: MetaDb, siteId: number): Promise<number> {
  const row = await db
    .selectFrom('custom_props')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('site_id', '=', siteId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Idempotent: adding a listed property changes nothing. */
export async function addCustomProp(db: MetaDb, siteId: number, property: string, now: number): Promise<void> {
  await db
    .insertInto('custom_props')
    .values({ site_id: siteId, property, created_at: now })
    .onConflict((oc) => oc.columns(['site_id', 'property']).doNothing())
    .execute();
}

/** True when the property was listed. */
export async function removeCustomProp(db: MetaDb, siteId: number, property: string): Promise<boolean> {
  const result = await db.deleteFrom('custom_props').where('site_id', '=', siteId).where('property', '=', property).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
