import { z } from 'zod';
import { pageMeta, pageQuery } from './paging.js';

/** Guests, team members, invitations and ownership transfers (src/api/routes/management/invitations.ts). */

/** PUT /api/v1/sites/guests. */
export const guestInvitation = z.strictObject({ site_id: z.string(), email: z.string(), role: z.string() });
/** PUT /api/v1/teams/memberships. */
export const memberInvitation = z.strictObject({ email: z.string(), role: z.string(), team_id: z.union([z.string(), z.number().int()]).optional() });
/** POST /api/v1/teams/ownership-transfer. */
export const ownershipTransferRequest = z.strictObject({ email: z.string() });
/** GET /api/v1/sites/guests and /api/v1/teams/memberships: their query strings. */
export const guestListQuery = z.strictObject({ site_id: z.string().optional(), ...pageQuery.shape });
export const memberListQuery = pageQuery;

/**
 * What an invite answers. It has the same shape, and the same status, whether or not the address
 * has an account: only an existing grant on this team or site (which the inviter can list
 * anyway) makes it `accepted` without an invitation.
 */
export const inviteOutcome = z.object({
  email: z.string(),
  role: z.string(),
  status: z.enum(['invited', 'accepted']),
  invitation: z.object({ id: z.number(), expires_at: z.string(), accept_url: z.string() }).nullable(),
  /**
   * Whether the link was emailed: `sent`, `not_set_up` (no SMTP_URL), `failed` (the mail server
   * refused; the link still works); absent when there was no invitation to send.
   */
  mail: z.enum(['sent', 'not_set_up', 'failed']).optional(),
});
export type InviteOutcome = z.infer<typeof inviteOutcome>;

/** A grant or an open invitation, as the guest and member lists show them. */
export const listedPerson = z.object({ email: z.string(), role: z.string(), status: z.enum(['accepted', 'invited']) });
export type ListedPerson = z.infer<typeof listedPerson>;

export const guestList = z.object({ guests: z.array(listedPerson), meta: pageMeta });
export type GuestList = z.infer<typeof guestList>;
export const membershipList = z.object({ memberships: z.array(listedPerson), meta: pageMeta });
export type MembershipList = z.infer<typeof membershipList>;

/** An invitation as GET /api/v1/teams/invitations lists it (team members and site guests alike). */
export const invitation = z.object({
  id: z.number(),
  email: z.string(),
  role: z.string(),
  site_id: z.string().nullable(),
  status: z.enum(['pending', 'expired']),
  created_at: z.string(),
  expires_at: z.string(),
});
export type Invitation = z.infer<typeof invitation>;
export const invitationList = z.object({ invitations: z.array(invitation) });
export type InvitationList = z.infer<typeof invitationList>;

/** An open ownership transfer. */
export const ownershipTransfer = z.object({ email: z.string(), status: z.literal('pending'), created_at: z.string(), expires_at: z.string() });
export type OwnershipTransfer = z.infer<typeof ownershipTransfer>;
/** GET /api/v1/teams/ownership-transfer. */
export const openOwnershipTransfer = z.object({ transfer: ownershipTransfer.nullable() });
export type OpenOwnershipTransfer = z.infer<typeof openOwnershipTransfer>;
/** POST /api/v1/teams/ownership-transfer: the link to send the new owner. */
export const transferOutcome = z.object({ email: z.string(), status: z.literal('pending'), expires_at: z.string(), accept_url: z.string() });
export type TransferOutcome = z.infer<typeof transferOutcome>;

/** POST /api/invitations/accept and /api/ownership-transfers/accept: the token, and a password (with a name for a new account). */
export const acceptance = z.strictObject({
  token: z.string().min(1).max(200),
  name: z.string().max(200).optional(),
  password: z.string().max(1000).optional(),
});
export const acceptanceOutcome = z.object({ accepted: z.literal(true), email: z.string(), role: z.string(), account_created: z.boolean() });
export type AcceptanceOutcome = z.infer<typeof acceptanceOutcome>;

/** GET /app/api/invitations/mine: invitations addressed to the signed-in user. */
export const myInvitation = z.object({ id: z.number(), team: z.string(), site: z.string().nullable(), role: z.string(), expires_at: z.string() });
export type MyInvitation = z.infer<typeof myInvitation>;
export const myInvitationList = z.object({ invitations: z.array(myInvitation) });
export type MyInvitationList = z.infer<typeof myInvitationList>;
/** POST /app/api/invitations/:id/accept. */
export const myInvitationAccepted = z.object({ accepted: z.literal(true), role: z.string() });
export type MyInvitationAccepted = z.infer<typeof myInvitationAccepted>;
/** POST /app/api/invitations/accept-link: the emailed link, opened while signed in. */
export const linkAcceptance = z.strictObject({ token: z.string().min(1).max(200), kind: z.enum(['invitations', 'ownership-transfers']) });

/** POST /app/api/teams/:team/members/role. */
export const memberRoleChange = z.strictObject({ email: z.string().max(320), role: z.string().max(20) });
export const memberRole = z.object({ email: z.string(), role: z.string() });
export type MemberRole = z.infer<typeof memberRole>;
