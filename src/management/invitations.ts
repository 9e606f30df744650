import { createHash, randomBytes } from 'node:crypto';
import type { InviteOutcome } from '../contracts/invitations.js';
import type { Role } from '../contracts/roles.js';
import { AppError, badRequest, notFound } from '../errors.js';
import type { MetaDb } from '../stores/meta/database.js';
import { findSiteGuest, grantSiteGuest, grantTeamRole, listTeamMembers } from '../stores/meta/guests.js';
import {
  findInvitationById,
  findInvitationByTokenHash,
  type Invitation,
  listOpenInvitations,
  markInvitationAccepted,
  replaceInvitation,
} from '../stores/meta/invitations.js';
import { getSite } from '../stores/meta/sites.js';
import { membershipRole } from '../stores/meta/teams.js';
import { EMAIL } from '../stores/meta/users.js';

/** Invitations and ownership transfers alike. */
export const INVITATION_LIFETIME_MS = 48 * 3_600_000;

export const GUEST_ROLES = ['viewer', 'editor'] as const satisfies readonly Role[];
export const TEAM_INVITATION_ROLES = ['admin', 'editor', 'viewer', 'billing'] as const satisfies readonly Role[];

/** 256 random bits; only the SHA-256 is stored, the token itself lives only in the accept link. */
export function newAcceptToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashAcceptToken(token) };
}

export const hashAcceptToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function acceptUrl(baseUrl: string, kind: 'invitations' | 'ownership-transfers', token: string): string {
  return `${baseUrl}/${kind}/accept?token=${token}`;
}

export function parseEmail(input: string): string {
  const email = input.trim();
  if (!EMAIL.test(email) || email.length > 320) throw badRequest('invalid_email', `"${input}" is not an email address.`);
  return email;
}

/** `owner` is never invited: ownership moves only by a transfer the new owner accepts. */
export function parseInvitationRole<R extends string>(input: string, allowed: readonly R[]): R {
  if ((allowed as readonly string[]).includes(input)) return input as R;
  const why =
    input === 'owner' ? '"owner" is not an invitational role (ownership moves only by a transfer the new owner accepts)' : `"${input}" is not a role here`;
  throw badRequest('invalid_role', `${why}; choose one of ${allowed.join(', ')}.`);
}

async function issue(
  db: MetaDb,
  target: { teamId: number; siteId: number | null },
  email: string,
  role: string,
  invitedBy: number,
  baseUrl: string,
  now: number,
): Promise<InviteOutcome> {
  const { token, hash } = newAcceptToken();
  const invitation = await replaceInvitation(
    db,
    { teamId: target.teamId, siteId: target.siteId, email, role, tokenHash: hash, invitedByUserId: invitedBy, expiresAt: now + INVITATION_LIFETIME_MS },
    now,
  );
  return {
    email,
    role,
    status: 'invited',
    invitation: { id: invitation.id, expires_at: new Date(invitation.expiresAt).toISOString(), accept_url: acceptUrl(baseUrl, 'invitations', token) },
  };
}

export async function inviteGuest(
  db: MetaDb,
  input: { teamId: number; siteId: number; email: string; role: string; invitedBy: number; baseUrl: string },
  now: number,
): Promise<InviteOutcome> {
  const email = parseEmail(input.email);
  const role = parseInvitationRole(input.role, GUEST_ROLES);
  // Find-or-create, as Plausible: an address already a guest, or already invited, keeps the role
  // it holds or was offered; changing it means removing the guest first.
  const guest = await findSiteGuest(db, input.siteId, email);
  if (guest) return { email: guest.email, role: guest.role, status: 'accepted', invitation: null };
  const pending = (await listOpenInvitations(db, input.teamId, { siteId: input.siteId })).find(
    (invitation) => invitation.expiresAt > now && invitation.emailNormalized === email.toLowerCase(),
  );
  // Only the token's hash is stored, so a repeat answers a fresh link (replacing the earlier one).
  return issue(db, { teamId: input.teamId, siteId: input.siteId }, email, pending?.role ?? role, input.invitedBy, input.baseUrl, now);
}

export async function inviteTeamMember(
  db: MetaDb,
  input: { teamId: number; email: string; role: string; invitedBy: number; baseUrl: string },
  now: number,
): Promise<InviteOutcome> {
  const email = parseEmail(input.email);
  const role = parseInvitationRole(input.role, TEAM_INVITATION_ROLES);
  const member = (await listTeamMembers(db, input.teamId)).find((m) => m.email.toLowerCase() === email.toLowerCase());
  if (member && member.role === 'owner') throw badRequest('invalid_role', `${member.email} owns this team; ownership changes only by a transfer.`);
  if (member && member.role === role) return { email: member.email, role, status: 'accepted', invitation: null };
  return issue(db, { teamId: input.teamId, siteId: null }, email, role, input.invitedBy, input.baseUrl, now);
}

const invalidLink = () => notFound('This invitation link is not valid: it was revoked, already used, or never existed.');

/** An invitation that can still be accepted; an expired one is refused with its own sentence. */
async function requireOpen(db: MetaDb, invitation: Invitation | undefined, now: number): Promise<Invitation> {
  if (!invitation || invitation.acceptedAt !== null || invitation.revokedAt !== null) throw invalidLink();
  // A guest invitation dies with its site.
  if (invitation.siteId !== null && (await getSite(db, invitation.siteId))?.deletedAt !== null) throw invalidLink();
  if (invitation.expiresAt <= now) {
    throw new AppError(410, 'invitation_expired', `This invitation expired at ${new Date(invitation.expiresAt).toISOString()}; ask for a new one.`);
  }
  return invitation;
}

/** The open invitation a token opens. */
export async function openInvitation(db: MetaDb, token: string, now: number): Promise<Invitation> {
  return requireOpen(db, await findInvitationByTokenHash(db, hashAcceptToken(token)), now);
}

/** An open invitation addressed to the signed-in user, by its id (the web app lists them). */
export async function openInvitationFor(db: MetaDb, invitationId: number, userEmail: string, now: number): Promise<Invitation> {
  const invitation = await findInvitationById(db, invitationId);
  return requireOpen(db, invitation?.emailNormalized === userEmail.toLowerCase() ? invitation : undefined, now);
}

/**
 * Accepts an invitation as the given user, whose address must be the invited one: the web app
 * passes its signed-in user, the token route the account it verified or created. The grant and
 * the acceptance are one transaction.
 */
export async function acceptInvitation(db: MetaDb, input: { token: string; userId: number; userEmail: string }, now: number): Promise<Invitation> {
  return acceptOpenInvitation(db, await openInvitation(db, input.token, now), input, now);
}

export async function acceptOpenInvitation(db: MetaDb, invitation: Invitation, input: { userId: number; userEmail: string }, now: number): Promise<Invitation> {
  if (input.userEmail.toLowerCase() !== invitation.emailNormalized) {
    throw new AppError(403, 'wrong_account', 'This invitation was sent to another address; sign in with that address to accept it.');
  }
  await db.transaction().execute(async (trx) => {
    if (!(await markInvitationAccepted(trx, invitation.id, now))) throw invalidLink();
    if (invitation.siteId === null) {
      // An owner accepting a lesser role keeps ownership; only a transfer takes it away.
      if ((await membershipRole(trx, invitation.teamId, input.userId)) !== 'owner')
        await grantTeamRole(trx, invitation.teamId, input.userId, invitation.role, now);
    } else await grantSiteGuest(trx, invitation.siteId, input.userId, invitation.role, now);
  });
  return { ...invitation, acceptedAt: now };
}
