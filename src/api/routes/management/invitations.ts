import type { FastifyInstance } from 'fastify';
import type { Acknowledgement } from '../../../contracts/acknowledgements.js';
import {
  type GuestList,
  guestInvitation,
  guestListQuery,
  type InvitationList,
  type InviteOutcome,
  type ListedPerson,
  type MembershipList,
  memberInvitation,
  memberListQuery,
  type OpenOwnershipTransfer,
  ownershipTransferRequest,
  type TransferOutcome,
} from '../../../contracts/invitations.js';
import { OWNER, TEAM_MANAGERS } from '../../../contracts/roles.js';
import { badRequest, notFound } from '../../../errors.js';
import { mailInvitation } from '../../../management/invitationMail.js';
import { inviteGuest, inviteTeamMember } from '../../../management/invitations.js';
import { requestOwnershipTransfer, transferJson } from '../../../management/ownershipTransfer.js';
import { parseId, parsePayload } from '../../../management/payload.js';
import { checkTeamParameter, requireRole, requireTeamSite } from '../../../management/siteAccess.js';
import { findSiteGuest, listSiteGuests, listTeamMembers, removeSiteGuest, removeTeamMember } from '../../../stores/meta/guests.js';
import {
  cancelOwnershipTransfer,
  type Invitation,
  listOpenInvitations,
  openOwnershipTransfer,
  revokeInvitation,
  revokeInvitationsFor,
} from '../../../stores/meta/invitations.js';
import { getSite } from '../../../stores/meta/sites.js';
import { type PageMeta, type PageRequest, pageOfList, parsePageRequest } from '../../pagination.js';
import { singleValued } from '../../requestParts.js';
import { bodyWithSiteId, isoTime, type ManagementDeps, PROVISION, READ, siteIdParameter } from './context.js';

/** Accepted grants first, then open invitations; each address once. */
function grantsAndInvitations(granted: Array<{ email: string; role: string }>, invitations: Invitation[], now: number): ListedPerson[] {
  const listed: ListedPerson[] = granted.map((g) => ({ email: g.email, role: g.role, status: 'accepted' }));
  for (const invitation of invitations) {
    if (invitation.expiresAt <= now || listed.some((l) => l.email.toLowerCase() === invitation.emailNormalized)) continue;
    listed.push({ email: invitation.email, role: invitation.role, status: 'invited' });
  }
  return listed;
}

/** One page of a list of people, paged by their place in it (the list is built whole, not stored). */
async function pageOfPeople(listed: ListedPerson[], page: PageRequest): Promise<{ people: ListedPerson[]; meta: PageMeta }> {
  const { rows, meta } = await pageOfList(
    listed.map((person, i) => ({ ...person, position: i + 1 })),
    page,
    (person) => person.position,
  );
  return { people: rows.map(({ position: _, ...person }) => person), meta };
}

/**
 * Guests, team memberships, invitations and ownership transfers. None of these routes grants
 * access by itself: each creates an invitation (or a transfer) that the invited person accepts.
 */
export function invitationRoutes(app: FastifyInstance, deps: ManagementDeps): void {
  guestRoutes(app, deps);
  membershipRoutes(app, deps);
  teamInvitationRoutes(app, deps);
  ownershipTransferRoutes(app, deps);
}

/** A site's guests: listed with their open invitations, invited, removed (with their invitations). */
function guestRoutes(app: FastifyInstance, { db, clock, baseUrl, mailer }: ManagementDeps): void {
  app.get('/api/v1/sites/guests', READ, async (request): Promise<GuestList> => {
    const query = parsePayload(guestListQuery, request.query ?? {});
    const now = clock.now();
    const site = await requireTeamSite(db, request.caller, query.site_id, now);
    const listed = grantsAndInvitations(await listSiteGuests(db, site.id), await listOpenInvitations(db, request.caller.teamId, { siteId: site.id }), now);
    const { people, meta } = await pageOfPeople(listed, parsePageRequest(query));
    return { guests: people, meta };
  });

  app.put('/api/v1/sites/guests', PROVISION, async (request): Promise<InviteOutcome> => {
    const body = parsePayload(guestInvitation, bodyWithSiteId(request));
    const now = clock.now();
    const site = await requireTeamSite(db, request.caller, body.site_id, now);
    await requireRole(db, request.caller, TEAM_MANAGERS, 'invite guests');
    const target = { teamId: request.caller.teamId, siteId: site.id, invitedBy: request.caller.userId };
    const outcome = await inviteGuest(db, { ...target, email: body.email, role: body.role, baseUrl }, now);
    return mailInvitation({ db, mailer }, outcome, target);
  });

  app.delete('/api/v1/sites/guests/:email', PROVISION, async (request): Promise<Acknowledgement<'deleted'>> => {
    const email = singleValued(request.params).email ?? '';
    const now = clock.now();
    const site = await requireTeamSite(db, request.caller, siteIdParameter(request), now);
    await requireRole(db, request.caller, TEAM_MANAGERS, 'remove guests');
    const guest = await findSiteGuest(db, site.id, email);
    if (guest) await removeSiteGuest(db, site.id, guest.userId);
    await revokeInvitationsFor(db, request.caller.teamId, site.id, email, now);
    // As in Plausible, nothing left to remove is still a success, so a provisioning tool can repeat it.
    return { deleted: true };
  });
}

/** The team's members: listed with their open invitations, invited, removed (never the owner). */
function membershipRoutes(app: FastifyInstance, { db, clock, baseUrl, mailer }: ManagementDeps): void {
  app.get('/api/v1/teams/memberships', READ, async (request): Promise<MembershipList> => {
    const query = parsePayload(memberListQuery, request.query ?? {});
    const now = clock.now();
    const listed = grantsAndInvitations(
      await listTeamMembers(db, request.caller.teamId),
      await listOpenInvitations(db, request.caller.teamId, { siteId: null }),
      now,
    );
    const { people, meta } = await pageOfPeople(listed, parsePageRequest(query));
    return { memberships: people, meta };
  });

  app.put('/api/v1/teams/memberships', PROVISION, async (request): Promise<InviteOutcome> => {
    const body = parsePayload(memberInvitation, request.body);
    checkTeamParameter(request.caller, body.team_id, () => notFound('Team could not be found.'));
    await requireRole(db, request.caller, TEAM_MANAGERS, 'invite team members');
    const target = { teamId: request.caller.teamId, siteId: null, invitedBy: request.caller.userId };
    const outcome = await inviteTeamMember(db, { ...target, email: body.email, role: body.role, baseUrl }, clock.now());
    return mailInvitation({ db, mailer }, outcome, target);
  });

  app.delete('/api/v1/teams/memberships/:email', PROVISION, async (request): Promise<Acknowledgement<'deleted'>> => {
    const email = singleValued(request.params).email ?? '';
    const now = clock.now();
    await requireRole(db, request.caller, TEAM_MANAGERS, 'remove team members');
    const member = (await listTeamMembers(db, request.caller.teamId)).find((m) => m.email.toLowerCase() === email.toLowerCase());
    if (member?.role === 'owner') throw badRequest('invalid_role', 'The owner cannot be removed; transfer ownership first.');
    const removed = member ? await removeTeamMember(db, request.caller.teamId, member.userId) : false;
    const revoked = await revokeInvitationsFor(db, request.caller.teamId, null, email, now);
    if (!removed && revoked === 0) throw notFound(`${email} is neither a member of this team nor invited to it.`);
    return { deleted: true };
  });
}

/** Every open invitation of the team, guests' and members', and revoking one. */
function teamInvitationRoutes(app: FastifyInstance, { db, clock }: ManagementDeps): void {
  app.get('/api/v1/teams/invitations', READ, async (request): Promise<InvitationList> => {
    const now = clock.now();
    const invitations = await listOpenInvitations(db, request.caller.teamId);
    const domains = new Map<number, string | undefined>();
    for (const siteId of new Set(invitations.flatMap((i) => (i.siteId === null ? [] : [i.siteId])))) domains.set(siteId, (await getSite(db, siteId))?.domain);
    return {
      invitations: invitations.map((i) => ({
        id: i.id,
        email: i.email,
        role: i.role,
        site_id: i.siteId === null ? null : (domains.get(i.siteId) ?? null),
        status: i.expiresAt <= now ? 'expired' : 'pending',
        created_at: isoTime(i.createdAt),
        expires_at: isoTime(i.expiresAt),
      })),
    };
  });

  app.delete('/api/v1/teams/invitations/:invitation_id', PROVISION, async (request): Promise<Acknowledgement<'revoked'>> => {
    const invitationId = parseId(singleValued(request.params).invitation_id, 'The invitation id');
    await requireRole(db, request.caller, TEAM_MANAGERS, 'revoke invitations');
    if (!(await revokeInvitation(db, request.caller.teamId, invitationId, clock.now()))) throw notFound('Invitation could not be found.');
    return { revoked: true };
  });
}

/** The team's one open ownership transfer: shown, requested by the owner, cancelled. */
function ownershipTransferRoutes(app: FastifyInstance, { db, clock, baseUrl }: ManagementDeps): void {
  app.get('/api/v1/teams/ownership-transfer', READ, async (request): Promise<OpenOwnershipTransfer> => {
    const transfer = await openOwnershipTransfer(db, request.caller.teamId);
    return { transfer: transfer && transfer.expiresAt > clock.now() ? transferJson(transfer) : null };
  });

  app.post('/api/v1/teams/ownership-transfer', PROVISION, async (request): Promise<TransferOutcome> => {
    const body = parsePayload(ownershipTransferRequest, request.body);
    await requireRole(db, request.caller, [OWNER], 'transfer ownership');
    return requestOwnershipTransfer(db, { teamId: request.caller.teamId, fromUserId: request.caller.userId, email: body.email, baseUrl }, clock.now());
  });

  app.delete('/api/v1/teams/ownership-transfer', PROVISION, async (request): Promise<Acknowledgement<'cancelled'>> => {
    await requireRole(db, request.caller, [OWNER], 'cancel an ownership transfer');
    if (!(await cancelOwnershipTransfer(db, request.caller.teamId, clock.now()))) throw notFound('There is no open ownership transfer.');
    return { cancelled: true };
  });
}
