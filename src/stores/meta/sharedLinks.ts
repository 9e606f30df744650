import { type MetaDb, records } from './database.js';

export interface SharedLink {
  id: number;
  siteId: number;
  name: string;
  /** The unguessable part of the public URL. */
  slug: string;
  passwordHash: string | null;
  createdAt: number;
}

export async function listSharedLinks(db: MetaDb, siteId: number): Promise<SharedLink[]> {
  return records(db).selectFrom('shared_links').selectAll().where('siteId', '=', siteId).orderBy('id').execute();
}

export async function findSharedLinkByName(db: MetaDb, siteId: number, name: string): Promise<SharedLink | undefined> {
  return records(db).selectFrom('shared_links').selectAll().where('siteId', '=', siteId).where('name', '=', name).executeTakeFirst();
}

/** For the public dashboard a shared link opens: the link behind a slug. */
export async function findSharedLinkBySlug(db: MetaDb, slug: string): Promise<SharedLink | undefined> {
  return records(db).selectFrom('shared_links').selectAll().where('slug', '=', slug).executeTakeFirst();
}

export async function insertSharedLink(
  db: MetaDb,
  input: { siteId: number; name: string; slug: string; passwordHash: string | null },
  now: number,
): Promise<SharedLink> {
  return records(db)
    .insertInto('shared_links')
    .values({ siteId: input.siteId, name: input.name, slug: input.slug, passwordHash: input.passwordHash, createdAt: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteSharedLink(db: MetaDb, siteId: number, name: string): Promise<boolean> {
  const result = await records(db).deleteFrom('shared_links').where('siteId', '=', siteId).where('name', '=', name).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
