import { createHash, randomBytes } from 'node:crypto';
import { type MetaDb, records } from './database.js';

/** A web-app sign-in lasts 14 days from its last use (sliding). */
export const WEB_SESSION_LIFETIME_MS = 14 * 24 * 3_600_000;
/**
 * Writing the last use on every request would write on every request; the sessions list shows it
 * to within five minutes, and the expiry slides with it.
 */
const TOUCH_AFTER_MS = 5 * 60_000;

export interface WebSession {
  userId: number;
  csrfToken: string;
  expiresAt: number;
  /** Names this session in the sessions list. */
  handle: string;
}

/** Where a session was signed in from, as the sessions list shows it: names only, never the agent or the address. */
export interface SessionDevice {
  browser: string;
  os: string;
}

/** A session as the sessions list shows it. */
export interface ListedWebSession extends SessionDevice {
  handle: string;
  createdAt: number;
  lastUsedAt: number;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new session for the user; the token (for the cookie) is returned once and stored hashed. The CLI makes short ones. */
export async function createWebSession(
  db: MetaDb,
  userId: number,
  now: number,
  options: { lifetimeMs?: number; device?: SessionDevice } = {},
): Promise<{ token: string; session: WebSession }> {
  const token = randomBytes(32).toString('base64url');
  const session = {
    userId,
    csrfToken: randomBytes(24).toString('base64url'),
    expiresAt: now + (options.lifetimeMs ?? WEB_SESSION_LIFETIME_MS),
    handle: randomBytes(12).toString('base64url'),
  };
  await db
    .insertInto('web_sessions')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      csrf_token: session.csrfToken,
      created_at: now,
      expires_at: session.expiresAt,
      handle: session.handle,
      browser: options.device?.browser ?? '',
      os: options.device?.os ?? '',
      last_used_at: now,
    })
    .execute();
  return { token, session };
}

/** The live session of a cookie token, its last use noted and its expiry slid forward; undefined when unknown or expired. */
export async function findWebSession(db: MetaDb, token: string, now: number): Promise<WebSession | undefined> {
  const tokenHash = hashToken(token);
  const row = await records(db)
    .selectFrom('web_sessions')
    .select(['userId', 'csrfToken', 'expiresAt', 'handle', 'lastUsedAt'])
    .where('tokenHash', '=', tokenHash)
    .executeTakeFirst();
  if (!row || row.expiresAt <= now) return undefined;
  let expiresAt = row.expiresAt;
  const lastUsedAt = row.lastUsedAt ?? 0;
  if (now - lastUsedAt > TOUCH_AFTER_MS) {
    // The expiry slides by the time since the last use, so a short session (the CLI's) stays short.
    expiresAt = Math.min(now + WEB_SESSION_LIFETIME_MS, expiresAt + (now - lastUsedAt));
    await db.updateTable('web_sessions').set({ expires_at: expiresAt, last_used_at: now }).where('token_hash', '=', tokenHash).execute();
  }
  return { userId: row.userId, csrfToken: row.csrfToken, expiresAt, handle: row.handle ?? '' };
}

/** The user's live sessions, most recently used first. */
export async function listUserWebSessions(db: MetaDb, userId: number, now: number): Promise<ListedWebSession[]> {
  const rows = await records(db)
    .selectFrom('web_sessions')
    .select(['handle', 'browser', 'os', 'createdAt', 'lastUsedAt'])
    .where('userId', '=', userId)
    .where('expiresAt', '>', now)
    .orderBy('lastUsedAt', 'desc')
    .orderBy('createdAt', 'desc')
    .execute();
  return rows.map((row) => ({ ...row, handle: row.handle ?? '', lastUsedAt: row.lastUsedAt ?? row.createdAt }));
}

export async function deleteWebSession(db: MetaDb, token: string): Promise<void> {
  await db.deleteFrom('web_sessions').where('token_hash', '=', hashToken(token)).execute();
}

/** Signs out one of the user's sessions by its handle; false when the user has no such session. */
export async function deleteUserWebSession(db: MetaDb, userId: number, handle: string): Promise<boolean> {
  const result = await db.deleteFrom('web_sessions').where('user_id', '=', userId).where('handle', '=', handle).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
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
