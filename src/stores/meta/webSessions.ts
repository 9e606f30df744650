import { createHash, randomBytes } from 'node:crypto';
import { type MetaDb, records } from './database.js';

/** A web-app sign-in lasts 14 days from its last use (sliding). */
export const WEB_SESSION_LIFETIME_MS = 14 * 24 * 3_600_000;
/** Extending on every request would write on every request; once an hour is enough. */
const EXTEND_AFTER_MS = 3_600_000;

export interface WebSession {
  userId: number;
  csrfToken: string;
  expiresAt: number;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new session for the user; the token (for the cookie) is returned once and stored hashed. The CLI makes short ones. */
export async function createWebSession(
  db: MetaDb,
  userId: number,
  now: number,
  lifetimeMs = WEB_SESSION_LIFETIME_MS,
): Promise<{ token: string; session: WebSession }> {
  const token = randomBytes(32).toString('base64url');
  const session = { userId, csrfToken: randomBytes(24).toString('base64url'), expiresAt: now + lifetimeMs };
  await db
    .insertInto('web_sessions')
    .values({ token_hash: hashToken(token), user_id: userId, csrf_token: session.csrfToken, created_at: now, expires_at: session.expiresAt })
    .execute();
  return { token, session };
}

/** The live session of a cookie token, its expiry slid forward; undefined when unknown or expired. */
export async function findWebSession(db: MetaDb, token: string, now: number): Promise<WebSession | undefined> {
  const tokenHash = hashToken(token);
  const row = await records(db).selectFrom('web_sessions').select(['userId', 'csrfToken', 'expiresAt']).where('tokenHash', '=', tokenHash).executeTakeFirst();
  if (!row || row.expiresAt <= now) return undefined;
  let expiresAt = row.expiresAt;
  if (now + WEB_SESSION_LIFETIME_MS - expiresAt > EXTEND_AFTER_MS) {
    expiresAt = now + WEB_SESSION_LIFETIME_MS;
    await db.updateTable('web_sessions').set({ expires_at: expiresAt }).where('token_hash', '=', tokenHash).execute();
  }
  return { ...row, expiresAt };
}

export async function deleteWebSession(db: MetaDb, token: string): Promise<void> {
  await db.deleteFrom('web_sessions').where('token_hash', '=', hashToken(token)).execute();
}

/** Signs the user out everywhere except, optionally, the session making the change. */
export async function deleteUserWebSessions(db: MetaDb, userId: number, keepToken?: string): Promise<void> {
  let query = db.deleteFrom('web_sessions').where('user_id', '=', userId);
  if (keepToken !== undefined) query = query.where('token_hash', '!=', hashToken(keepToken));
  await query.execute();
}

export async function deleteExpiredWebSessions(db: MetaDb, now: number): Promise<void> {
  await db.deleteFrom('web_sessions').where('expires_at', '<=', now).execute();
}
