import { verifyPassword } from '../accounts/passwords.js';
import { MIN_PASSWORD_LENGTH } from '../contracts/account.js';
import { AppError, badRequest } from '../errors.js';
import type { MetaDb } from '../stores/meta/database.js';
import { createUserWithTeam, findUserByEmail } from '../stores/meta/users.js';

/**
 * Who is accepting a token link without a signed-in session. The token proves the link reached
 * the invited address; the account still has to be proved (its password) or made (a name and a
 * password), so a forwarded link alone never acts for an existing account.
 */
export async function resolveAcceptingAccount(
  db: MetaDb,
  input: { email: string; name?: string | undefined; password?: string | undefined },
  now: number,
): Promise<{ userId: number; email: string; created: boolean }> {
  const user = await findUserByEmail(db, input.email);
  if (user) {
    if (input.name !== undefined) throw badRequest('account_exists', `An account for ${user.email} exists; give its "password" instead of a "name".`);
    if (user.password_hash === null) {
      throw new AppError(403, 'sign_in_required', `The account for ${user.email} has no password; accept this link while signed in to the web app.`);
    }
    if (input.password === undefined || !(await verifyPassword(input.password, user.password_hash))) {
      throw new AppError(403, 'invalid_credentials', `The password does not match the account for ${user.email}.`);
    }
    return { userId: user.id, email: user.email, created: false };
  }
  if (input.name === undefined || input.password === undefined) {
    throw badRequest(
      'account_required',
      `There is no account for ${input.email} yet; give a "name" and a "password" (at least ${MIN_PASSWORD_LENGTH} characters) to create it.`,
    );
  }
  const { userId } = await createUserWithTeam(db, { email: input.email, name: input.name, password: input.password }, now);
  return { userId, email: input.email, created: true };
}
