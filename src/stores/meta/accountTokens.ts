import { createHash, randomBytes } from 'node:crypto';
import { type MetaDb, records } from './database.js';

/**
 * One-time tokens of an account: the link of a password reset or an email change, and the
 * challenge between a sign-in's password and its second factor. The token itself goes to the
 * person (in a link, or to the page); only its SHA-256 is stored.
 */
export type AccountTokenPurpose = 'password_reset' | 'email_change' | 'second_factor';

export interface AccountToken {
  userId: number;
  purpose: AccountTokenPurpose;
  newEmail: string | null;
  expiresAt: number;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function createAccountToken(
  db: MetaDb,
  input: { userId: number; purpose: AccountTokenPurpose; newEmail?: string; lifetimeMs: number },
  now: number,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('account_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: input.userId,
      purpose: input.purpose,
      new_email: input.newEmail ?? null,
      created_at: now,
      expires_at: now + input.lifetimeMs,
      used_at: null,
    })
    .execute();
  return token;
}

/** The token's record whatever its state, for telling "expired" from "never existed"; undefined when unknown. */
export async function findAccountToken(
  db: MetaDb,
  token: string,
  purpose: AccountTokenPurpose,
): Promise<(AccountToken & { usedAt: number | null }) | undefined> {
  const row = await records(db)
    .selectFrom('account_tokens')
    .select(['userId', 'purpose', 'newEmail', 'expiresAt', 'usedAt'])
    .where('tokenHash', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .executeTakeFirst();
  return row ? { ...row, purpose } : undefined;
}

/**
 * Uses a token: true for the one caller that marks it used while it is unused and unexpired (two
 * requests racing with one link cannot both succeed).
 */
export async function spendAccountToken(db: MetaDb, token: string, purpose: AccountTokenPurpose, now: number): Promise<boolean> {
  const result = await db
    .updateTable('account_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends every open token of a kind for the user (a new password makes older reset links useless). */
export async function retireAccountTokens(db: MetaDb, userId: number, purpose: AccountTokenPurpose, now: number): Promise<void> {
  await db
    .updateTable('account_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}

/** Tokens are worth nothing once expired: the background jobs drop them with expired sessions. */
export async function deleteExpiredAccountTokens(db: MetaDb, now: number): Promise<void> {
  await db.deleteFrom('account_tokens').where('expires_at', '<=', now).execute();
}

/** The address an email change waits to confirm, if any (the Account page says so). */
export async function pendingEmailChange(db: MetaDb, userId: number, now: number): Promise<string | null> {
  const row = await db
    .selectFrom('account_tokens')
    .select('new_email')
    .where('user_id', '=', userId)
    .where('purpose', '=', 'email_change')
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return row?.new_email ?? null;
}
