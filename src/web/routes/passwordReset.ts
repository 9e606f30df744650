import type { FastifyInstance } from 'fastify';
import { type PasswordResetRequested, passwordResetCompletion, passwordResetRequest } from '../../contracts/account.js';
import type { Acknowledgement } from '../../contracts/acknowledgements.js';
import { AppError } from '../../errors.js';
import { passwordResetFor, RESET_REQUEST_LIMIT, resetPassword } from '../../management/passwordReset.js';
import { parsePayload } from '../../management/payload.js';
import type { WebDeps } from '../signIn.js';
import { tooManyAttempts } from './rateLimits.js';

/** Said whether or not an account uses the address: the page must not tell who has an account. */
export const RESET_REQUESTED =
  'If an account uses that address, an email with a link to choose a new password is on its way. The link works once, within an hour.';

export const mailNotSetUp = () =>
  new AppError(
    409,
    'mail_not_set_up',
    'This server does not send email (SMTP_URL is not set), so no reset link can be mailed. Whoever runs the server can print one with ./bin/svc user reset-password --email <your address>.',
  );

/**
 * "Forgot your password?": a reset link by email (src/management/passwordReset.ts), limited per
 * address asked for and per client address, whatever the answer; and the new password chosen
 * through the link.
 */
export function passwordResetRoutes(scope: FastifyInstance, deps: WebDeps): void {
  scope.post('/app/api/password-reset', async (request): Promise<PasswordResetRequested> => {
    const body = parsePayload(passwordResetRequest, request.body);
    const mailer = deps.mailer;
    if (mailer === null) throw mailNotSetUp();
    const now = deps.clock.now();
    const account = `reset:${body.email.trim().toLowerCase()}`;
    const client = `reset-address:${request.ip}`;
    const wait = await deps.signInLimiter.retryAfter(
      [
        [account, RESET_REQUEST_LIMIT.perAccount],
        [client, RESET_REQUEST_LIMIT.perClient],
      ],
      now,
    );
    if (wait > 0) throw tooManyAttempts('requests for a reset link', wait);
    // Every request counts, so the limit says nothing about whether the account exists.
    await deps.signInLimiter.failed([account, client], now);
    const mail = await passwordResetFor(deps.db, body.email, deps.baseUrl, now);
    // Sent after the answer: waiting for the mail server would tell an existing account by the time taken.
    if (mail) void mailer.send(mail).catch((error: unknown) => request.log.warn({ err: error }, 'could not send a password reset email'));
    return { requested: true, message: RESET_REQUESTED };
  });

  scope.post('/app/api/password-reset/complete', async (request): Promise<Acknowledgement<'changed'>> => {
    const body = parsePayload(passwordResetCompletion, request.body);
    await resetPassword(deps.db, body, deps.clock.now());
    return { changed: true };
  });
}
