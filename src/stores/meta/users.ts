import { hashPassword } from '../../accounts/passwords.js';
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
  const name = input.name.trim();
  if (!EMAIL.test(email) || email.length > 320) throw invalid('invalid_email', `"${input.email}" is not an email address.`);
  if (name.length === 0 || name.length > 200) throw invalid('invalid_name', 'A name is required (at most 200 characters).');
  if (input.password !== undefined && input.password.length < 8) {
    throw invalid('weak_password', 'The password must be at least 8 characters long.');
  }
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
