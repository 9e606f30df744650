import type { Selectable } from 'kysely';
import type { MetaDb } from './database.js';
import type { SharedLinksTable } from './schema.js';

export interface SharedLink {
  id: number;
  siteId: number;
  name: string;
  /** The unguessable part of the public URL. */
  slug: string;
  passwordHash: string | null;
  createdAt: number;
}

type LinkRow = Selectable<SharedLinksTable>;
const toLink = (row: LinkRow): SharedLink => ({
  id: row.id,
  siteId: row.site_id,
  name: row.name,
  slug: row.slug,
  passwordHash: row.password_hash,
  createdAt: row.created_at,
});

export async function listSharedLinks(db: MetaDb, siteId: number): Promise<SharedLink[]> {
  const rows = await db.selectFrom('shared_links').selectAll().where('site_id', '=', siteId).orderBy('id').execute();
  return rows.map(toLink);
}

export async function findSharedLinkByName(db: MetaDb, siteId: number, name: string): Promise<SharedLink | undefined> {
  const row = await db.selectFrom('shared_links').selectAll().where('site_id', '=', siteId).where('name', '=', name).executeTakeFirst();
  return row && toLink(row);
}

/** For the public dashboard (Step 6): the link behind a slug. */
export async function findSharedLinkBySlug(db: MetaDb, slug: string): Promise<SharedLink | undefined> {
  const row = await db.selectFrom('shared_links').selectAll().where('slug', '=', slug).executeTakeFirst();
  return row && toLink(row);
}

export async function insertSharedLink(
  db: MetaDb,
  input: { siteId: number; name: string; slug: string; passwordHash: string | null },
  now: number,
): Promise<SharedLink> {
  const row = await db
    .insertInto('shared_links')
    .values({ site_id: input.siteId, name: input.name, slug: input.slug, password_hash: input.passwordHash, created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toLink(row);
}

export async function deleteSharedLink(db: MetaDb, siteId: number, name: string): Promise<boolean> {
  const result = await db.deleteFrom('shared_links').where('site_id', '=', siteId).where('name', '=', name).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
