import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import { ROLE_SCOPES, ROLES, type Role } from '../contracts/roles.js';
import { AppError, badRequest } from '../errors.js';
import type { ApiCaller } from '../stores/meta/apiKeys.js';
import type { MetaDb } from '../stores/meta/database.js';
import { membershipRole } from '../stores/meta/teams.js';
import { findWebSession } from '../stores/meta/webSessions.js';
import { SESSION_COOKIE } from './signIn.js';
import { refuseLockedTeam } from './siteAccess.js';

/** The header naming which of the signed-in user's teams an API request acts for. */
export const TEAM_HEADER = 'x-svc-team';

const teamHeader = z.string().regex(/^[1-9][0-9]{0,9}$/);

/**
 * The web app's settings screens call the same /api/v1 routes as API clients (one implementation
 * of every rule), signed in by the session cookie instead of a key: the caller is the user acting
 * for the team in `x-svc-team`, with the scopes of their role there (src/contracts/roles.ts). A
 * state-changing request must echo the session's CSRF token. A locked team's settings keep
 * working, so its owner can settle it, and its statistics answer 402 as its dashboards do.
 * Undefined when the request carries no session cookie, so key authentication answers as before.
 */
export async function sessionCaller(deps: { db: MetaDb; clock: Clock }, request: FastifyRequest): Promise<ApiCaller | undefined> {
  const token = request.cookies?.[SESSION_COOKIE];
  if (!token) return undefined;
  const now = deps.clock.now();
  const session = await findWebSession(deps.db, token, now);
  if (!session) return undefined;
  if (request.method !== 'GET' && request.method !== 'HEAD' && request.headers['x-csrf-token'] !== session.csrfToken) {
    throw new AppError(403, 'csrf_token_invalid', "This request lacks the page's security token; reload the page and try again.");
  }
  const team = teamHeader.safeParse(request.headers[TEAM_HEADER]);
  if (!team.success) throw badRequest('missing_team', `Signed in to the web app, an API request names its team in the "${TEAM_HEADER}" header.`);
  const teamId = Number(team.data);
  const role = await membershipRole(deps.db, teamId, session.userId);
  if (role === undefined || !(ROLES as readonly string[]).includes(role)) {
    throw new AppError(403, 'forbidden_role', 'You are not a member of that team.');
  }
  if (request.routeOptions.config.scope === 'stats:read') await refuseLockedTeam(deps.db, teamId);
  return {
    id: 0,
    teamId,
    userId: session.userId,
    name: 'web app session',
    prefix: '',
    scopes: [...ROLE_SCOPES[role as Role]],
    hourlyLimit: Number.POSITIVE_INFINITY,
    createdAt: now,
    lastUsedAt: null,
    revokedAt: null,
    teamLockedAt: null,
    teamLockedReason: null,
  };
}
