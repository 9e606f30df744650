import { AppError, notFound } from '../errors.js';
import type { Mail } from '../mail/mailer.js';
import { createAccountToken, findAccountToken, retireAccountTokens, spendAccountToken } from '../stores/meta/accountTokens.js';
import type { MetaDb } from '../stores/meta/database.js';
import { findUserByEmail, getUserProfile, setUserEmail } from '../stores/meta/users.js';
import { emailChangeMail, emailChangeNotice } from './accountMail.js';
import { parseEmail } from './invitations.js';
import { confirmPassword } from './reauthentication.js';

/** A confirmation link for a new address holds a day: long enough to reach another mailbox. */
export const EMAIL_CHANGE_LIFETIME_MS = 24 * 3_600_000;

export const confirmEmailUrl = (baseUrl: string, token: string) => `${baseUrl}/confirm-email?token=${token}`;

/**
 * Step one of changing the address: with the password, a link to the new address (which must
 * confirm it can read mail there) and a notice to the old one; the account keeps its address until
 * the link is opened. A newer request replaces an older one.
 */
export async function requestEmailChange(
  db: MetaDb,
  input: { userId: number; email: string; password: string; baseUrl: string },
  now: number,
): Promise<{ confirmation: Mail; notice: Mail }> {
  const email = parseEmail(input.email);
  const user = await getUserProfile(db, input.userId);
  if (!user) throw notFound('This account no longer exists.');
  await confirmPassword(db, user.id, input.password);
  if (email.toLowerCase() === user.email.toLowerCase()) throw new AppError(400, 'same_email', `${email} is this account's address already.`);
  if (await findUserByEmail(db, email)) throw new AppError(409, 'email_taken', `Another account uses ${email}.`);
  await retireAccountTokens(db, user.id, 'email_change', now);
  const token = await createAccountToken(db, { userId: user.id, purpose: 'email_change', newEmail: email, lifetimeMs: EMAIL_CHANGE_LIFETIME_MS }, now);
  return {
    confirmation: emailChangeMail({ to: email, from: user.email, link: confirmEmailUrl(input.baseUrl, token), expiresAt: now + EMAIL_CHANGE_LIFETIME_MS }),
    notice: emailChangeNotice({ to: user.email, newEmail: email, baseUrl: input.baseUrl }),
  };
}

const invalidLink = () => notFound('This confirmation link is not valid: it was already used, replaced by a newer one, or never existed.');

/** Step two: the link from the new mailbox moves the account to that address. */
export async function confirmEmailChange(db: MetaDb, token: string, now: number): Promise<{ email: string }> {
  const record = await findAccountToken(db, token, 'email_change');
  if (!record || record.usedAt !== null || record.newEmail === null) throw invalidLink();
  if (record.expiresAt <= now) {
    throw new AppError(
      410,
      'link_expired',
      `This confirmation link expired at ${new Date(record.expiresAt).toISOString()}; change the address again from the Account page.`,
    );
  }
  if (!(await spendAccountToken(db, token, 'email_change', now))) throw invalidLink();
  await setUserEmail(db, record.userId, record.newEmail);
  return { email: record.newEmail };
}
