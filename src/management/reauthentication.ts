import { verifyPassword } from '../accounts/passwords.js';
import { AppError } from '../errors.js';
import type { MetaDb } from '../stores/meta/database.js';
import { passwordHashOf } from '../stores/meta/users.js';

/**
 * The password asked again before a change that takes over or ends an account (turning two-factor
 * sign-in on or off, changing the email address, deleting the account): a session left open on a
 * shared computer is not enough for those.
 */
export async function confirmPassword(db: MetaDb, userId: number, password: string): Promise<void> {
  const stored = await passwordHashOf(db, userId);
  if (!stored || !(await verifyPassword(password, stored))) throw new AppError(403, 'invalid_credentials', 'The password is not right.');
}
