import type { Role } from '../contracts/roles.js';
import { AppError, notFound } from '../errors.js';
import type { MetaDb } from '../stores/meta/database.js';
import { grantTeamRole, listTeamMembers } from '../stores/meta/guests.js';
import { parseEmail, parseInvitationRole, TEAM_INVITATION_ROLES } from './invitations.js';

/**
 * Changes a member's role in place (Team settings › Members). The owner may give any role but
 * owner (ownership moves only by transfer); an admin may move people among editor, viewer and
 * billing, but not make or unmake admins.
 */
export async function changeMemberRole(
  db: MetaDb,
  input: { teamId: number; actorRole: Role; email: string; role: string },
  now: number,
): Promise<{ email: string; role: string }> {
  const email = parseEmail(input.email);
  const role = parseInvitationRole(input.role, TEAM_INVITATION_ROLES);
  const member = (await listTeamMembers(db, input.teamId)).find((m) => m.email.toLowerCase() === email.toLowerCase());
  if (!member) throw notFound(`${email} is not a member of this team.`);
  if (member.role === 'owner') throw new AppError(400, 'invalid_role', `${member.email} owns this team; ownership changes only by a transfer.`);
  if (input.actorRole !== 'owner' && (member.role === 'admin' || role === 'admin')) {
    throw new AppError(403, 'forbidden_role', 'Only the team owner can make or unmake admins.');
  }
  await grantTeamRole(db, input.teamId, member.userId, role, now);
  return { email: member.email, role };
}
