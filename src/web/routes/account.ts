import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { hashPassword, passwordTooShort, verifyPassword, WEAK_PASSWORD } from '../../accounts/passwords.js';
import { SIGN_IN_LIMIT } from '../../accounts/signInLimiter.js';
import type { SignInOutcome } from '../../contracts/account.js';
import type { Acknowledgement } from '../../contracts/acknowledgements.js';
import { AppError } from '../../errors.js';
import { parsePayload } from '../../management/payload.js';
import { twoFactorEnabled } from '../../management/twoFactor.js';
import { createAccountToken } from '../../stores/meta/accountTokens.js';
import { createUserWithTeam, findUserByEmail, hasNoUsers, passwordHashOf, setPasswordHash } from '../../stores/meta/users.js';
import { deleteUserWebSessions, deleteWebSession } from '../../stores/meta/webSessions.js';
import { clearSessionCookie, requireViewer, startSession, type WebDeps } from '../signIn.js';
import { tooManyAttempts } from './rateLimits.js';

const setupBody = z.strictObject({ email: z.string().max(320), name: z.string().max(200), password: z.string().max(1000) });
const signInBody = z.strictObject({ email: z.string().max(320), password: z.string().max(1000) });
const passwordBody = z.strictObject({ current_password: z.string().max(1000), new_password: z.string().max(1000) });

const wrongCredentials = () => new AppError(401, 'invalid_credentials', 'That email address and password do not match an account.');
const weakPassword = () => new AppError(400, 'weak_password', WEAK_PASSWORD);

/** The second step of a sign-in with two-factor on must follow its password within ten minutes. */
const SECOND_FACTOR_WINDOW_MS = 10 * 60_000;

/**
 * First-run set-up, sign-in, sign-out and password change. Sign-in answers the same sentence, in
 * about the same time, for an unknown address, an account without a password and a wrong
 * password; failures are limited per address and per client address. With two-factor sign-in on,
 * the password opens only a challenge that a code answers (src/web/routes/twoFactor.ts).
 */
export function accountRoutes(scope: FastifyInstance, deps: WebDeps): void {
  // Compared against when there is no account, so a miss costs what a wrong password costs.
  const decoy = hashPassword('not anyone’s password');

  scope.post('/app/api/setup', async (request, reply): Promise<Acknowledgement<'signed_in'>> => {
    const body = parsePayload(setupBody, request.body);
    if (!(await hasNoUsers(deps.db))) throw new AppError(409, 'already_set_up', 'This service is set up already: sign in instead.');
    if (passwordTooShort(body.password)) throw weakPassword();
    const { userId } = await createUserWithTeam(deps.db, { email: body.email, name: body.name, password: body.password }, deps.clock.now());
    await startSession(request, reply, deps, userId);
    return { signed_in: true };
  });

  scope.post('/app/api/sign-in', async (request, reply): Promise<SignInOutcome> => {
    const body = parsePayload(signInBody, request.body);
    const now = deps.clock.now();
    const account = `email:${body.email.trim().toLowerCase()}`;
    const client = `address:${request.ip}`;
    const wait = await deps.signInLimiter.retryAfter(
      [
        [account, SIGN_IN_LIMIT.perAccount],
        [client, SIGN_IN_LIMIT.perClient],
      ],
      now,
    );
    if (wait > 0) throw tooManyAttempts('failed sign-ins', wait);
    const user = await findUserByEmail(deps.db, body.email);
    const matches = await verifyPassword(body.password, user?.password_hash ?? (await decoy));
    if (!user || user.password_hash === null || !matches) {
      await deps.signInLimiter.failed([account, client], now);
      throw wrongCredentials();
    }
    await deps.signInLimiter.succeeded(account);
    if (await twoFactorEnabled(deps.db, user.id)) {
      const challenge = await createAccountToken(deps.db, { userId: user.id, purpose: 'second_factor', lifetimeMs: SECOND_FACTOR_WINDOW_MS }, now);
      return { two_factor_required: true, challenge };
    }
    await startSession(request, reply, deps, user.id);
    return { signed_in: true };
  });

  scope.post('/app/api/sign-out', async (request, reply): Promise<Acknowledgement<'signed_out'>> => {
    if (request.viewer) await deleteWebSession(deps.db, request.viewer.token);
    clearSessionCookie(reply, deps);
    return { signed_out: true };
  });

  scope.post('/app/api/password', async (request): Promise<Acknowledgement<'changed'>> => {
    const body = parsePayload(passwordBody, request.body);
    const viewer = requireViewer(request);
    const stored = await passwordHashOf(deps.db, viewer.userId);
    if (!stored || !(await verifyPassword(body.current_password, stored))) {
      throw new AppError(403, 'invalid_credentials', 'The current password is not right.');
    }
    if (passwordTooShort(body.new_password)) throw weakPassword();
    await setPasswordHash(deps.db, viewer.userId, await hashPassword(body.new_password));
    // Everywhere else is signed out; this browser stays signed in.
    await deleteUserWebSessions(deps.db, viewer.userId, viewer.token);
    return { changed: true };
  });
}
