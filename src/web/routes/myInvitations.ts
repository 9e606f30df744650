import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Acknowledgement } from '../../contracts/acknowledgements.js';
import { linkAcceptance, type MyInvitationAccepted, type MyInvitationList } from '../../contracts/invitations.js';
import { acceptInvitation, acceptOpenInvitation, openInvitationFor } from '../../management/invitations.js';
import { acceptOwnershipTransfer } from '../../management/ownershipTransfer.js';
import { parsePayload } from '../../management/payload.js';
import { listInvitationsForEmail, revokeInvitation } from '../../stores/meta/invitations.js';
import { getUserProfile } from '../../stores/meta/users.js';
import { requireViewer, signedOut, type WebDeps } from '../signIn.js';

const invitationParams = z.strictObject({ id: z.coerce.number().int().positive() });

/**
 * Invitations addressed to the signed-in user, accepted or declined in the app without the
 * emailed link (the same acceptance as the link's: src/management/invitations.ts).
 */
export function myInvitationRoutes(scope: FastifyInstance, deps: WebDeps): void {
  const me = async (userId: number) => {
    const user = await getUserProfile(deps.db, userId);
    if (!user) throw signedOut();
    return user;
  };

  scope.get('/app/api/invitations/mine', async (request): Promise<MyInvitationList> => {
    const user = await me(requireViewer(request).userId);
    const invitations = await listInvitationsForEmail(deps.db, user.email, deps.clock.now());
    return {
      invitations: invitations.map((invitation) => ({
        id: invitation.id,
        team: invitation.teamName,
        site: invitation.siteDomain,
        role: invitation.role,
        expires_at: new Date(invitation.expiresAt).toISOString(),
      })),
    };
  });

  scope.post('/app/api/invitations/:id/accept', async (request): Promise<MyInvitationAccepted> => {
    const { id } = parsePayload(invitationParams, request.params);
    const viewer = requireViewer(request);
    const user = await me(viewer.userId);
    const now = deps.clock.now();
    const invitation = await openInvitationFor(deps.db, id, user.email, now);
    await acceptOpenInvitation(deps.db, invitation, { userId: user.id, userEmail: user.email }, now);
    return { accepted: true, role: invitation.role };
  });

  scope.post('/app/api/invitations/:id/decline', async (request): Promise<Acknowledgement<'declined'>> => {
    const { id } = parsePayload(invitationParams, request.params);
    const user = await me(requireViewer(request).userId);
    const now = deps.clock.now();
    const invitation = await openInvitationFor(deps.db, id, user.email, now);
    await revokeInvitation(deps.db, invitation.teamId, invitation.id, now);
    return { declined: true };
  });

  // The emailed link, opened while signed in: accepted as the signed-in user (whose address must be the invited one).
  scope.post('/app/api/invitations/accept-link', async (request): Promise<Acknowledgement<'accepted'>> => {
    const body = parsePayload(linkAcceptance, request.body);
    const user = await me(requireViewer(request).userId);
    const now = deps.clock.now();
    const input = { token: body.token, userId: user.id, userEmail: user.email };
    if (body.kind === 'invitations') await acceptInvitation(deps.db, input, now);
    else await acceptOwnershipTransfer(deps.db, input, now);
    return { accepted: true };
  });
}
