import type { FastifyInstance } from 'fastify';
import type { SessionState } from '../../contracts/session.js';
import { getUserProfile, hasNoUsers, listUserTeams } from '../../stores/meta/users.js';
import type { WebDeps } from '../signIn.js';

/**
 * `GET /app/api/session`: what the app needs before it draws anything — who is signed in, their
 * teams, the CSRF token to echo, and whether the one-time set-up is still to be done.
 */
export function sessionRoutes(scope: FastifyInstance, deps: WebDeps): void {
  scope.get('/app/api/session', async (request): Promise<SessionState> => {
    const viewer = request.viewer;
    const user = viewer ? await getUserProfile(deps.db, viewer.userId) : undefined;
    const mail = deps.mailer !== null;
    if (!viewer || !user) return { user: null, csrf_token: null, teams: [], needs_setup: await hasNoUsers(deps.db), mail };
    const teams = await listUserTeams(deps.db, user.id);
    return {
      user,
      csrf_token: viewer.session.csrfToken,
      teams: teams.map((team) => ({ id: team.id, name: team.name, role: team.role, locked: team.lockedAt !== null, locked_reason: team.lockedReason })),
      needs_setup: false,
      mail,
    };
  });
}
