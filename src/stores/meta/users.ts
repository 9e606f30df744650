import { hashPassword, passwordTooShort, WEAK_PASSWORD } from '../../accounts/passwords.js';
import { invalid, taken } from '../../errors.js';
import { type MetaDb, records } from './database.js';

export interface NewUser {
  email: string;
  name: string;
  password?: string | undefined;
}

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A user and the team they own, created together: every user starts with a team of their own. */
export async function createUserWithTeam(db: MetaDb, input: NewUser, now: number): Promise<{ userId: number; teamId: number }> {
  const email = input.email.trim();
  if (!EMAIL.test(email) || email.length > 320) throw invalid('invalid_email', `"${input.email}" is not an email address.`);
  const name = parseUserName(input.name);
  if (input.password !== undefined && passwordTooShort(input.password)) throw invalid('weak_password', WEAK_PASSWORD);
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  const emailNormalized = email.toLowerCase();
  return db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('users').select('id').where('email_normalized', '=', emailNormalized).executeTakeFirst();
    if (existing) throw taken('email_taken', `A user with email ${email} already exists.`);
    const user = await trx
      .insertInto('users')
      .values({ email, email_normalized: emailNormalized, name, password_hash: passwordHash, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const team = await trx
      .insertInto('teams')
      .values({ name: `${name}'s team`, locked_at: null, locked_reason: null, collection_stopped_at: null, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('memberships').values({ team_id: team.id, user_id: user.id, role: 'owner', created_at: now }).execute();
    return { userId: user.id, teamId: team.id };
  });
}

export async function findUserByEmail(db: MetaDb, email: string) {
  return db.selectFrom('users').selectAll().where('email_normalized', '=', email.trim().toLowerCase()).executeTakeFirst();
}

export interface UserProfile {
  id: number;
  email: string;
  name: string;
}

export async function getUserProfile(db: MetaDb, userId: number): Promise<UserProfile | undefined> {
  return db.selectFrom('users').select(['id', 'email', 'name']).where('id', '=', userId).executeTakeFirst();
}

/** True until the first user exists: the web app then offers its one-time set-up page. */
export async function hasNoUsers(db: MetaDb): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  return row === undefined;
}

export interface UserTeam {
  id: number;
  name: string;
  role: string;
  lockedAt: number | null;
  lockedReason: string | null;
}

/** The teams a user belongs to, with their role in each, oldest membership first. */
export async function listUserTeams(db: MetaDb, userId: number): Promise<UserTeam[]> {
  return records(db)
    .selectFrom('memberships')
    .innerJoin('teams', 'teams.id', 'memberships.teamId')
    .select(['teams.id', 'teams.name', 'memberships.role', 'teams.lockedAt', 'teams.lockedReason'])
    .where('memberships.userId', '=', userId)
    .orderBy('memberships.createdAt')
    .orderBy('teams.id')
    .execute();
}

/** The stored password hash of a user (null when the account has none). */
export async function passwordHashOf(db: MetaDb, userId: number): Promise<string | null | undefined> {
  const row = await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
  return row?.password_hash;
}

export async function setPasswordHash(db: MetaDb, userId: number, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
}

/** A name as every account keeps it: trimmed, 1–200 characters. */
export function parseUserName(input: string): string {
  const name = input.trim();
  if (name.length === 0 || name.length > 200) throw invalid('invalid_name', 'A name is required (at most 200 characters).');
  return name;
}

export async function setUserName(db: MetaDb, userId: number, name: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ name: parseUserName(name) })
    .where('id', '=', userId)
    .execute();
}

/** Moves the account to a new address; refused when another account uses it. */
export async function setUserEmail(db: MetaDb, userId: number, email: string): Promise<void> {
  const emailNormalized = email.toLowerCase();
  await db.transaction().execute(async (trx) => {
    const other = await trx.selectFrom('users').select('id').where('email_normalized', '=', emailNormalized).where('id', '!=', userId).executeTakeFirst();
    if (other) throw taken('email_taken', `Another account uses ${email}.`);
    await trx.updateTable('users').set({ email, email_normalized: emailNormalized }).where('id', '=', userId).execute();
  });
}

/** A team the user owns, with what else it holds: other members, live sites, and site records of any kind (deleted ones included). */
export interface OwnedTeam {
  id: number;
  name: string;
  otherMembers: number;
  liveSites: number;
  sites: number;
}

export async function ownedTeams(db: MetaDb, userId: number): Promise<OwnedTeam[]> {
  const rows = await records(db)
    .selectFrom('memberships as mine')
    .innerJoin('teams', 'teams.id', 'mine.teamId')
    .select((eb) => [
      'teams.id',
      'teams.name',
      eb
        .selectFrom('memberships as other')
        .select((inner) => inner.fn.countAll<number>().as('n'))
        .whereRef('other.teamId', '=', 'teams.id')
        .where('other.userId', '!=', userId)
        .as('otherMembers'),
      eb
        .selectFrom('sites')
        .select((inner) => inner.fn.countAll<number>().as('n'))
        .whereRef('sites.teamId', '=', 'teams.id')
        .as('sites'),
      eb
        .selectFrom('sites')
        .select((inner) => inner.fn.countAll<number>().as('n'))
        .whereRef('sites.teamId', '=', 'teams.id')
        .where('sites.deletedAt', 'is', null)
        .as('liveSites'),
    ])
    .where('mine.userId', '=', userId)
    .where('mine.role', '=', 'owner')
    .orderBy('teams.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    otherMembers: Number(row.otherMembers ?? 0),
    liveSites: Number(row.liveSites ?? 0),
    sites: Number(row.sites ?? 0),
  }));
}

/**
 * Deletes a user and the given teams they own alone with nothing in them (the caller has checked,
 * src/management/accountDeletion.ts). Their memberships, guest grants,
 * sessions, recovery codes and tokens go with the user (foreign keys); their API keys and the
 * ownership transfers they offered are deleted, the invitations they sent keep no inviter.
 */
export async function deleteUser(db: MetaDb, userId: number, emptyTeamIds: number[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('api_keys').where('user_id', '=', userId).execute();
    await trx.deleteFrom('ownership_transfers').where('from_user_id', '=', userId).execute();
    await trx.updateTable('invitations').set({ invited_by_user_id: null }).where('invited_by_user_id', '=', userId).execute();
    await trx.deleteFrom('users').where('id', '=', userId).execute();
    if (emptyTeamIds.length === 0) return;
    // Keys of former members of those teams would otherwise hold them.
    await trx.deleteFrom('api_keys').where('team_id', 'in', emptyTeamIds).execute();
    await trx.deleteFrom('teams').where('id', 'in', emptyTeamIds).execute();
  });
}
