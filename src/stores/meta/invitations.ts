import type { ExpressionBuilder } from 'kysely';
import { type MetaDb, type MetaRecord, type MetaRecords, records } from './database.js';

/** Invitations and ownership transfers are offers, open until accepted or revoked (expired ones included). */
type Offer = 'invitations' | 'ownership_transfers';
const stillOpen = (eb: ExpressionBuilder<MetaRecords, Offer>) => eb.and([eb('acceptedAt', 'is', null), eb('revokedAt', 'is', null)]);

/** Accepts or revokes the open offers `match` picks; how many it settled. */
async function settle(
  db: MetaDb,
  table: Offer,
  change: { acceptedAt: number } | { revokedAt: number },
  match: { id?: number; teamId?: number },
): Promise<number> {
  let query = records(db).updateTable(table).set(change).where(stillOpen);
  if (match.id !== undefined) query = query.where('id', '=', match.id);
  if (match.teamId !== undefined) query = query.where('teamId', '=', match.teamId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Every column of an invitation but its token's hash, which only the lookup by token compares. */
const INVITATION_COLUMNS = [
  'id',
  'teamId',
  'siteId',
  'email',
  'emailNormalized',
  'role',
  'invitedByUserId',
  'createdAt',
  'expiresAt',
  'acceptedAt',
  'revokedAt',
] as const;

/** An invitation into a team (siteId null) or onto one site as a guest. */
export type Invitation = Pick<MetaRecord<'invitations'>, (typeof INVITATION_COLUMNS)[number]>;

export interface NewInvitation {
  teamId: number;
  siteId: number | null;
  email: string;
  role: string;
  tokenHash: string;
  invitedByUserId: number;
  expiresAt: number;
}

/**
 * Issues an invitation, revoking any open one for the same address and target first, so an
 * address has at most one live link per team or site.
 */
export async function replaceInvitation(db: MetaDb, input: NewInvitation, now: number): Promise<Invitation> {
  return db.transaction().execute(async (trx) => {
    await revokeInvitationsFor(trx, input.teamId, input.siteId, input.email, now);
    return records(trx)
      .insertInto('invitations')
      .values({
        teamId: input.teamId,
        siteId: input.siteId,
        email: input.email,
        emailNormalized: input.email.toLowerCase(),
        role: input.role,
        tokenHash: input.tokenHash,
        invitedByUserId: input.invitedByUserId,
        createdAt: now,
        expiresAt: input.expiresAt,
        acceptedAt: null,
        revokedAt: null,
      })
      .returning(INVITATION_COLUMNS)
      .executeTakeFirstOrThrow();
  });
}

/** Invitations of a team not yet accepted or revoked (expired ones included), oldest first. */
export async function listOpenInvitations(db: MetaDb, teamId: number, filter: { siteId?: number | null } = {}): Promise<Invitation[]> {
  let query = records(db).selectFrom('invitations').select(INVITATION_COLUMNS).where('teamId', '=', teamId).where(stillOpen);
  if (filter.siteId === null) query = query.where('siteId', 'is', null);
  else if (filter.siteId !== undefined) query = query.where('siteId', '=', filter.siteId);
  return query.orderBy('id').execute();
}

export async function findInvitationById(db: MetaDb, invitationId: number): Promise<Invitation | undefined> {
  return records(db).selectFrom('invitations').select(INVITATION_COLUMNS).where('id', '=', invitationId).executeTakeFirst();
}

/** Open, unexpired invitations addressed to an email, newest first, with what they open. */
export async function listInvitationsForEmail(
  db: MetaDb,
  email: string,
  now: number,
): Promise<(Invitation & { teamName: string; siteDomain: string | null })[]> {
  const rows = await records(db)
    .selectFrom('invitations')
    .innerJoin('teams', 'teams.id', 'invitations.teamId')
    .leftJoin('sites', 'sites.id', 'invitations.siteId')
    .select(INVITATION_COLUMNS.map((column) => `invitations.${column}` as const))
    .select(['teams.name as teamName', 'sites.domain as siteDomain', 'sites.deletedAt as siteDeletedAt'])
    .where('invitations.emailNormalized', '=', email.toLowerCase())
    .where('invitations.acceptedAt', 'is', null)
    .where('invitations.revokedAt', 'is', null)
    .where('invitations.expiresAt', '>', now)
    .orderBy('invitations.id', 'desc')
    .execute();
  return rows
    .filter((row) => row.siteDeletedAt === null)
    .map(({ siteDeletedAt: _, ...invitation }) => ({ ...invitation, siteDomain: invitation.siteDomain ?? null }));
}

export async function findInvitationByTokenHash(db: MetaDb, tokenHash: string): Promise<Invitation | undefined> {
  return records(db).selectFrom('invitations').select(INVITATION_COLUMNS).where('tokenHash', '=', tokenHash).executeTakeFirst();
}

/** True when an open invitation of the team was revoked. */
export async function revokeInvitation(db: MetaDb, teamId: number, invitationId: number, now: number): Promise<boolean> {
  return (await settle(db, 'invitations', { revokedAt: now }, { teamId, id: invitationId })) > 0;
}

/** Revokes every open invitation of an address to a team (siteId null) or a site. */
export async function revokeInvitationsFor(db: MetaDb, teamId: number, siteId: number | null, email: string, now: number): Promise<number> {
  let query = records(db)
    .updateTable('invitations')
    .set({ revokedAt: now })
    .where('teamId', '=', teamId)
    .where('emailNormalized', '=', email.toLowerCase())
    .where(stillOpen);
  query = siteId === null ? query.where('siteId', 'is', null) : query.where('siteId', '=', siteId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Marks an invitation accepted unless it was accepted or revoked meanwhile; runs inside the
 * transaction that grants the access, so both happen or neither.
 */
export async function markInvitationAccepted(db: MetaDb, invitationId: number, now: number): Promise<boolean> {
  return (await settle(db, 'invitations', { acceptedAt: now }, { id: invitationId })) > 0;
}

export interface OwnershipTransfer {
  id: number;
  teamId: number;
  fromUserId: number;
  toEmail: string;
  createdAt: number;
  expiresAt: number;
  acceptedAt: number | null;
  revokedAt: number | null;
}

/** A transfer as the team's pages show it: the address it was sent to, normalised; never its token's hash. */
const TRANSFER_COLUMNS = ['id', 'teamId', 'fromUserId', 'toEmailNormalized as toEmail', 'createdAt', 'expiresAt', 'acceptedAt', 'revokedAt'] as const;

/** A team has at most one open transfer: a new request replaces the old one. */
export async function replaceOwnershipTransfer(
  db: MetaDb,
  input: { teamId: number; fromUserId: number; toEmail: string; tokenHash: string; expiresAt: number },
  now: number,
): Promise<OwnershipTransfer> {
  return db.transaction().execute(async (trx) => {
    await cancelOwnershipTransfer(trx, input.teamId, now);
    return records(trx)
      .insertInto('ownership_transfers')
      .values({
        teamId: input.teamId,
        fromUserId: input.fromUserId,
        toEmailNormalized: input.toEmail.toLowerCase(),
        tokenHash: input.tokenHash,
        createdAt: now,
        expiresAt: input.expiresAt,
        acceptedAt: null,
        revokedAt: null,
      })
      .returning(TRANSFER_COLUMNS)
      .executeTakeFirstOrThrow();
  });
}

export async function openOwnershipTransfer(db: MetaDb, teamId: number): Promise<OwnershipTransfer | undefined> {
  return records(db)
    .selectFrom('ownership_transfers')
    .select(TRANSFER_COLUMNS)
    .where('teamId', '=', teamId)
    .where(stillOpen)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export async function cancelOwnershipTransfer(db: MetaDb, teamId: number, now: number): Promise<boolean> {
  return (await settle(db, 'ownership_transfers', { revokedAt: now }, { teamId })) > 0;
}

export async function findOwnershipTransferByTokenHash(db: MetaDb, tokenHash: string): Promise<OwnershipTransfer | undefined> {
  return records(db).selectFrom('ownership_transfers').select(TRANSFER_COLUMNS).where('tokenHash', '=', tokenHash).executeTakeFirst();
}

export async function markOwnershipTransferAccepted(db: MetaDb, transferId: number, now: number): Promise<boolean> {
  return (await settle(db, 'ownership_transfers', { acceptedAt: now }, { id: transferId })) > 0;
}
