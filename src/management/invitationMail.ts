import type { InviteOutcome } from '../contracts/invitations.js';
import type { Mailer } from '../mail/mailer.js';
import type { MetaDb } from '../stores/meta/database.js';
import { getSite } from '../stores/meta/sites.js';
import { getTeam } from '../stores/meta/teams.js';
import { getUserProfile } from '../stores/meta/users.js';
import { invitationMail } from './accountMail.js';

/**
 * Emails a new invitation's link to the invited address when mail is set up (SMTP_URL), naming the
 * inviter and the team or site; the link is in the answer either way, to copy. A mail server that
 * refuses does not undo the invitation: the answer says the email failed, and the link still works.
 */
export async function mailInvitation(
  deps: { db: MetaDb; mailer: Mailer | null },
  outcome: InviteOutcome,
  input: { teamId: number; siteId: number | null; invitedBy: number },
): Promise<InviteOutcome> {
  if (outcome.invitation === null) return outcome;
  if (deps.mailer === null) return { ...outcome, mail: 'not_set_up' };
  const [team, site, inviter] = await Promise.all([
    getTeam(deps.db, input.teamId),
    input.siteId === null ? undefined : getSite(deps.db, input.siteId),
    getUserProfile(deps.db, input.invitedBy),
  ]);
  const mail = invitationMail({
    to: outcome.email,
    inviter: inviter ? `${inviter.name} (${inviter.email})` : 'A team member',
    team: team?.name ?? 'a team',
    site: site?.domain ?? null,
    role: outcome.role,
    link: outcome.invitation.accept_url,
    expiresAt: Date.parse(outcome.invitation.expires_at),
  });
  try {
    await deps.mailer.send(mail);
    return { ...outcome, mail: 'sent' };
  } catch {
    return { ...outcome, mail: 'failed' };
  }
}
