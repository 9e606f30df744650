import type { FastifyInstance } from 'fastify';
import { SIGN_IN_LIMIT } from '../../accounts/signInLimiter.js';
import {
  type RecoveryCodes,
  type SecondFactorOutcome,
  secondFactorSignIn,
  type TwoFactorSetup,
  twoFactorConfirmation,
  twoFactorDisabling,
  twoFactorSetupRequest,
} from '../../contracts/account.js';
import type { Acknowledgement } from '../../contracts/acknowledgements.js';
import { AppError } from '../../errors.js';
import { parsePayload } from '../../management/payload.js';
import { checkSecondFactor, confirmTwoFactor, recoveryCodesLeft, startTwoFactorSetup, turnOffTwoFactor, wrongCode } from '../../management/twoFactor.js';
import { findAccountToken, spendAccountToken } from '../../stores/meta/accountTokens.js';
import { getUserProfile } from '../../stores/meta/users.js';
import { requireViewer, signedOut, startSession, type WebDeps } from '../signIn.js';
import { tooManyAttempts } from './rateLimits.js';

const challengeOver = () => new AppError(401, 'challenge_expired', 'This sign-in took too long or was completed already; sign in with your password again.');

/**
 * Two-factor sign-in: the second step of a sign-in (a code, or a recovery code, after the
 * password), and turning it on and off from the Account page (src/management/twoFactor.ts).
 */
export function twoFactorRoutes(scope: FastifyInstance, deps: WebDeps): void {
  const twoFactor = { db: deps.db, secrets: deps.twoFactorSecrets };

  // Wrong codes count toward the account's sign-in limit, so the password's challenge cannot be used to guess codes.
  scope.post('/app/api/sign-in/two-factor', async (request, reply): Promise<SecondFactorOutcome> => {
    const body = parsePayload(secondFactorSignIn, request.body);
    const now = deps.clock.now();
    const challenge = await findAccountToken(deps.db, body.challenge, 'second_factor');
    if (!challenge || challenge.usedAt !== null || challenge.expiresAt <= now) throw challengeOver();
    const limit = `two-factor:${challenge.userId}`;
    const wait = await deps.signInLimiter.retryAfter([[limit, SIGN_IN_LIMIT.perAccount]], now);
    if (wait > 0) throw tooManyAttempts('wrong codes', wait);
    const kind = await checkSecondFactor(twoFactor, challenge.userId, body.code, now);
    if (kind === null) {
      await deps.signInLimiter.failed([limit], now);
      throw wrongCode();
    }
    if (!(await spendAccountToken(deps.db, body.challenge, 'second_factor', now))) throw challengeOver();
    await deps.signInLimiter.succeeded(limit);
    await startSession(request, reply, deps, challenge.userId);
    return { signed_in: true, recovery_codes_left: kind === 'recovery_code' ? await recoveryCodesLeft(deps.db, challenge.userId) : null };
  });

  scope.post('/app/api/two-factor/setup', async (request): Promise<TwoFactorSetup> => {
    const body = parsePayload(twoFactorSetupRequest, request.body);
    const user = await getUserProfile(deps.db, requireViewer(request).userId);
    if (!user) throw signedOut();
    return startTwoFactorSetup(twoFactor, user, body.password);
  });

  scope.post('/app/api/two-factor/enable', async (request): Promise<RecoveryCodes> => {
    const body = parsePayload(twoFactorConfirmation, request.body);
    const codes = await confirmTwoFactor(twoFactor, requireViewer(request).userId, body.code, deps.clock.now());
    return { recovery_codes: codes };
  });

  scope.post('/app/api/two-factor/disable', async (request): Promise<Acknowledgement<'disabled'>> => {
    const body = parsePayload(twoFactorDisabling, request.body);
    await turnOffTwoFactor(twoFactor, requireViewer(request).userId, body, deps.clock.now());
    return { disabled: true };
  });
}
