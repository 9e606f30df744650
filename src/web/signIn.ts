import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SecretBox } from '../accounts/secretBox.js';
import type { SignInLimiter } from '../accounts/signInLimiter.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { Mailer } from '../mail/mailer.js';
import type { MetaDb } from '../stores/meta/database.js';
import { createWebSession, deleteWebSession, findWebSession, WEB_SESSION_LIFETIME_MS, type WebSession } from '../stores/meta/webSessions.js';
import { sessionDevice } from './sessionDevice.js';

export const SESSION_COOKIE = 'svc_session';

/** Who is signed in to the web app on this request, if anyone. */
export interface Viewer {
  userId: number;
  session: WebSession;
  /** The cookie's token, needed to sign this session out. */
  token: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    viewer: Viewer | null;
  }
}

export interface WebDeps {
  db: MetaDb;
  clock: Clock;
  /** Cookies are marked Secure when the service's public address is https. */
  secureCookies: boolean;
  /** Failed sign-ins and shared-link passwords, counted across every node with STATE_URL (src/state/signInLimiter.ts signInLimiterFor). */
  signInLimiter: SignInLimiter;
  /** Sends account emails (password reset, email change); null without SMTP_URL. */
  mailer: Mailer | null;
  /** Public address of the service, on which emailed links are built. */
  baseUrl: string;
  /** Seals two-factor secrets at rest. */
  twoFactorSecrets: SecretBox;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const signedOut = () => new AppError(401, 'signed_out', 'You are not signed in (or your session has ended); sign in again.');

/**
 * The web app's layer in front of every `/app/api` route: reads the session cookie into
 * `request.viewer`, and guards every state-changing request against cross-site forgery twice over:
 * the body must be JSON (which no cross-site form can send without a CORS preflight, and we answer
 * none), and a signed-in request must echo the session's CSRF token in `x-csrf-token`.
 */
export function readWebSession(scope: FastifyInstance, deps: WebDeps): void {
  scope.decorateRequest('viewer', null);
  scope.addHook('onRequest', async (request) => {
    const token = request.cookies[SESSION_COOKIE];
    const session = token ? await findWebSession(deps.db, token, deps.clock.now()) : undefined;
    request.viewer = session && token ? { userId: session.userId, session, token } : null;
    if (SAFE_METHODS.has(request.method)) return;
    const type = request.headers['content-type'] ?? '';
    if (request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0' && !type.startsWith('application/json')) {
      throw new AppError(415, 'unsupported_media_type', 'The web app sends JSON; this request did not.');
    }
    if (request.viewer && request.headers['x-csrf-token'] !== request.viewer.session.csrfToken) {
      throw new AppError(403, 'csrf_token_invalid', "This request lacks the page's security token; reload the page and try again.");
    }
  });
}

/** The signed-in viewer, or a 401 the app answers by showing the sign-in page. */
export function requireViewer(request: FastifyRequest): Viewer {
  if (!request.viewer) throw signedOut();
  return request.viewer;
}

export function setSessionCookie(reply: FastifyReply, deps: WebDeps, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.secureCookies,
    maxAge: Math.floor(WEB_SESSION_LIFETIME_MS / 1000),
  });
}

/**
 * Signs the request's browser in as the user: a new session on every sign-in (a session id planted
 * before sign-in is never promoted), named by the browser and OS it was signed in from.
 */
export async function startSession(request: FastifyRequest, reply: FastifyReply, deps: WebDeps, userId: number): Promise<void> {
  if (request.viewer) await deleteWebSession(deps.db, request.viewer.token);
  const { token } = await createWebSession(deps.db, userId, deps.clock.now(), { device: sessionDevice(request) });
  setSessionCookie(reply, deps, token);
}

export function clearSessionCookie(reply: FastifyReply, deps: WebDeps): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: deps.secureCookies });
}
