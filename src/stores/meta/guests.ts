import { sql } from 'kysely';
import { type MetaDb, records } from './database.js';

/** People with access: accepted site guests and team members, with the address they sign in with. */
export interface Grantee {
  userId: number;
  email: string;
  role: string;
  createdAt: number;
}

/** Where each kind of access is kept: a site's guests, a team's members. */
const GRANTS = { site: { table: 'site_guests', scope: 'siteId' }, team: { table: 'memberships', scope: 'teamId' } } as const;

/** Everyone granted access to one site or team, in the order they were granted it. */
async function grantees(db: MetaDb, grant: keyof typeof GRANTS, id: number): Promise<Grantee[]> {
  const { table, scope } = GRANTS[grant];
  return records(db)
    .selectFrom(table)
    .innerJoin('users', 'users.id', 'userId')
    .select(['userId', 'users.email', 'role', `${table}.createdAt`])
    .where(sql.ref(`${table}.${scope}`), '=', id)
    .orderBy(`${table}.createdAt`)
    .orderBy('users.id')
    .execute();
}

export const listSiteGuests = (db: MetaDb, siteId: number) => grantees(db, 'site', siteId);

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

export const listTeamMembers = (db: MetaDb, teamId: number) => grantees(db, 'team', teamId);

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
