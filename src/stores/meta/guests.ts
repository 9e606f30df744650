import type { MetaDb } from './database.js';

/** People with access: accepted site guests and team members, with the address they sign in with. */
export interface Grantee {
  userId: number;
  email: string;
  role: string;
  createdAt: number;
}

export async function listSiteGuests(db: MetaDb, siteId: number): Promise<Grantee[]> {
  return db
    .selectFrom('site_guests')
    .innerJoin('users', 'users.id', 'site_guests.user_id')
    .select(['site_guests.user_id as userId', 'users.email as email', 'site_guests.role as role', 'site_guests.created_at as createdAt'])
    .where('site_guests.site_id', '=', siteId)
    .orderBy('site_guests.created_at')
    .orderBy('users.id')
    .execute();
}

export async function findSiteGuest(db: MetaDb, siteId: number, email: string): Promise<Grantee | undefined> {
  return (await listSiteGuests(db, siteId)).find((g) => g.email.toLowerCase() === email.toLowerCase());
}

/** Grants or changes a guest's role on a site (only ever called when an invitation is accepted). */
export async function grantSiteGuest(db: MetaDb, siteId: number, userId: number, role: string, now: number): Promise<void> {
  await db
    .insertInto('site_guests')
    .values({ site_id: siteId, user_id: userId, role, created_at: now })
    .onConflict((oc) => oc.columns(['site_id', 'user_id']).doUpdateSet({ role }))
    .execute();
}

export async function removeSiteGuest(db: MetaDb, siteId: number, userId: number): Promise<boolean> {
  const result = await db.deleteFrom('site_guests').where('site_id', '=', siteId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function listTeamMembers(db: MetaDb, teamId: number): Promise<Grantee[]> {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['memberships.user_id as userId', 'users.email as email', 'memberships.role as role', 'memberships.created_at as createdAt'])
    .where('memberships.team_id', '=', teamId)
    .orderBy('memberships.created_at')
    .orderBy('users.id')
    .execute();
}

/** Grants or changes a team role: when an invitation or transfer is accepted, or the owner or an admin changes it (src/management/memberRoles.ts). */
export async function grantTeamRole(db: MetaDb, teamId: number, userId: number, role: string, now: number): Promise<void> {
  await db
    .insertInto('memberships')
    .values({ team_id: teamId, user_id: userId, role, created_at: now })
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doUpdateSet({ role }))
    .execute();
}

export async function removeTeamMember(db: MetaDb, teamId: number, userId: number): Promise<boolean> {
  const result = await db.deleteFrom('memberships').where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The user's guest role on a site, if they are its guest. */
export async function siteGuestRole(db: MetaDb, siteId: number, userId: number): Promise<string | undefined> {
  const row = await db.selectFrom('site_guests').select('role').where('site_id', '=', siteId).where('user_id', '=', userId).executeTakeFirst();
  return row?.role;
}
