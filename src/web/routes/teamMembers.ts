import type { FastifyInstance } from 'fastify';
import { type MemberRole, memberRoleChange } from '../../contracts/invitations.js';
import { teamParams } from '../../contracts/params.js';
import { TEAM_MANAGERS } from '../../contracts/roles.js';
import { changeMemberRole } from '../../management/memberRoles.js';
import { parsePayload } from '../../management/payload.js';
import { requireViewer, type WebDeps } from '../signIn.js';
import { requireTeamRole } from '../siteAccess.js';

/** Changing a member's role from Team settings › Members (the API only invites). */
export function teamMemberRoutes(scope: FastifyInstance, deps: WebDeps): void {
  scope.post('/app/api/teams/:team/members/role', async (request): Promise<MemberRole> => {
    const { team } = parsePayload(teamParams, request.params);
    const body = parsePayload(memberRoleChange, request.body);
    const actorRole = await requireTeamRole(deps.db, requireViewer(request), team, TEAM_MANAGERS, "change members' roles");
    return changeMemberRole(deps.db, { teamId: team, actorRole, email: body.email, role: body.role }, deps.clock.now());
  });
}
