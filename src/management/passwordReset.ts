import { hashPassword, passwordTooShort, WEAK_PASSWORD } from '../accounts/passwords.js';
import { AppError, invalid, notFound } from '../errors.js';
import type { Mail } from '../mail/mailer.js';
import { createAccountToken, findAccountToken, retireAccountTokens, spendAccountToken } from '../stores/meta/accountTokens.js';
import type { MetaDb } from '../stores/meta/database.js';
import { findUserByEmail, setPasswordHash } from '../stores/meta/users.js';
import { deleteUserWebSessions } from '../stores/meta/webSessions.js';
import { passwordResetMail } from './accountMail.js';

/** A reset link works once, for an hour: long enough to reach the inbox, short for a stolen one. */
export const PASSWORD_RESET_LIFETIME_MS = 3_600_000;

/** Requests for reset links, counted per account address and per client address over SIGN_IN_LIMIT's window. */
export const RESET_REQUEST_LIMIT = { perAccount: 3, perClient: 20 };

export const resetPageUrl = (baseUrl: string, token: string) => `${baseUrl}/password-reset?token=${token}`;

/** A new reset link for a user: what the email carries, and what `svc user reset-password` prints on the server. */
export async function createResetLink(db: MetaDb, userId: number, baseUrl: string, now: number): Promise<{ link: string; expiresAt: number }> {
  const token = await createAccountToken(db, { userId, purpose: 'password_reset', lifetimeMs: PASSWORD_RESET_LIFETIME_MS }, now);
  return { link: resetPageUrl(baseUrl, token), expiresAt: now + PASSWORD_RESET_LIFETIME_MS };
}

/**
 * The email for "Forgot your password?", or null when no account uses the address (the caller
 * answers the same either way, and sends in the background so the time does not tell either).
 */
export async function passwordResetFor(db: MetaDb, email: string, baseUrl: string, now: number): Promise<Mail | null> {
  const user = await findUserByEmail(db, email);
  if (!user) return null;
  const { link, expiresAt } = await createResetLink(db, user.id, baseUrl, now);
  return passwordResetMail({ to: user.email, link, expiresAt, baseUrl });
}

const invalidLink = () => notFound('This link to choose a new password is not valid: it was already used, or never existed. Ask for a new one.');

/** The reset link's state before a password is typed: refused with the same sentences as the reset itself. */
export async function checkResetLink(db: MetaDb, token: string, now: number): Promise<void> {
  const record = await findAccountToken(db, token, 'password_reset');
  if (!record || record.usedAt !== null) throw invalidLink();
  if (record.expiresAt <= now) {
    throw new AppError(410, 'link_expired', `This link to choose a new password expired at ${new Date(record.expiresAt).toISOString()}; ask for a new one.`);
  }
}

/**
 * Sets the new password through a reset link: the link is used up, any other reset link of the
 * account is retired, and every session of the account ends (whoever knew the old password is
 * signed out). Two-factor sign-in stays on: the next sign-in still asks for a code.
 */
export async function resetPassword(db: MetaDb, input: { token: string; password: string }, now: number): Promise<void> {
  await checkResetLink(db, input.token, now);
  if (passwordTooShort(input.password)) throw invalid('weak_password', WEAK_PASSWORD);
  const record = await findAccountToken(db, input.token, 'password_reset');
  const hash = await hashPassword(input.password);
  if (!record || !(await spendAccountToken(db, input.token, 'password_reset', now))) throw invalidLink();
  await setPasswordHash(db, record.userId, hash);
  await retireAccountTokens(db, record.userId, 'password_reset', now);
  await deleteUserWebSessions(db, record.userId);
}
