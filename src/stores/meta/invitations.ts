import type { Selectable } from 'kysely';
import type { MetaDb } from './database.js';
import type { InvitationsTable, OwnershipTransfersTable } from './schema.js';

/** An invitation into a team (siteId null) or onto one site as a guest. */
export interface Invitation {
  id: number;
  teamId: number;
  siteId: number | null;
  email: string;
  emailNormalized: string;
  role: string;
  invitedByUserId: number | null;
  createdAt: number;
  expiresAt: number;
  acceptedAt: number | null;
  revokedAt: number | null;
}

type InvitationRow = Selectable<InvitationsTable>;

const toInvitation = (row: InvitationRow): Invitation => ({
  id: row.id,
  teamId: row.team_id,
  siteId: row.site_id,
  email: row.email,
  emailNormalized: row.email_normalized,
  role: row.role,
  invitedByUserId: row.invited_by_user_id,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  acceptedAt: row.accepted_at,
  revokedAt: row.revoked_at,
});

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
  const emailNormalized = input.email.toLowerCase();
  return db.transaction().execute(async (trx) => {
    let open = trx
      .updateTable('invitations')
      .set({ revoked_at: now })
      .where('team_id', '=', input.teamId)
      .where('email_normalized', '=', emailNormalized)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null);
    open = input.siteId === null ? open.where('site_id', 'is', null) : open.where('site_id', '=', input.siteId);
    await open.execute();
    const row = await trx
      .insertInto('invitations')
      .values({
        team_id: input.teamId,
        site_id: input.siteId,
        email: input.email,
        email_normalized: emailNormalized,
        role: input.role,
        token_hash: input.tokenHash,
        invited_by_user_id: input.invitedByUserId,
        created_at: now,
        expires_at: input.expiresAt,
        accepted_at: null,
        revoked_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toInvitation(row);
  });
}

/** Invitations of a team not yet accepted or revoked (expired ones included), oldest first. */
export async function listOpenInvitations(db: MetaDb, teamId: number, filter: { siteId?: number | null } = {}): Promise<Invitation[]> {
  let query = db.selectFrom('invitations').selectAll().where('team_id', '=', teamId).where('accepted_at', 'is', null).where('revoked_at', 'is', null);
  if (filter.siteId === null) query = query.where('site_id', 'is', null);
  else if (filter.siteId !== undefined) query = query.where('site_id', '=', filter.siteId);
  const rows = await query.orderBy('id').execute();
  return rows.map(toInvitation);
}

export async function findInvitationById(db: MetaDb, invitationId: number): Promise<Invitation | undefined> {
  const row = await db.selectFrom('invitations').selectAll().where('id', '=', invitationId).executeTakeFirst();
  return row && toInvitation(row);
}

/** Open, unexpired invitations addressed to an email, newest first, with what they open. */
export async function listInvitationsForEmail(
  db: MetaDb,
  email: string,
  now: number,
): Promise<(Invitation & { teamName: string; siteDomain: string | null })[]> {
  const rows = await db
    .selectFrom('invitations')
    .innerJoin('teams', 'teams.id', 'invitations.team_id')
    .leftJoin('sites', 'sites.id', 'invitations.site_id')
    .selectAll('invitations')
    .select(['teams.name as team_name', 'sites.domain as site_domain', 'sites.deleted_at as site_deleted_at'])
    .where('invitations.email_normalized', '=', email.toLowerCase())
    .where('invitations.accepted_at', 'is', null)
    .where('invitations.revoked_at', 'is', null)
    .where('invitations.expires_at', '>', now)
    .orderBy('invitations.id', 'desc')
    .execute();
  return rows
    .filter((row) => row.site_deleted_at === null)
    .map((row) => ({ ...toInvitation(row), teamName: row.team_name, siteDomain: row.site_domain ?? null }));
}

export async function findInvitationByTokenHash(db: MetaDb, tokenHash: string): Promise<Invitation | undefined> {
  const row = await db.selectFrom('invitations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  return row && toInvitation(row);
}

/** True when an open invitation of the team was revoked. */
export async function revokeInvitation(db: MetaDb, teamId: number, invitationId: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ revoked_at: now })
    .where('team_id', '=', teamId)
    .where('id', '=', invitationId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Revokes every open invitation of an address to a team (siteId null) or a site. */
export async function revokeInvitationsFor(db: MetaDb, teamId: number, siteId: number | null, email: string, now: number): Promise<number> {
  let query = db
    .updateTable('invitations')
    .set({ revoked_at: now })
    .where('team_id', '=', teamId)
    .where('email_normalized', '=', email.toLowerCase())
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null);
  query = siteId === null ? query.where('site_id', 'is', null) : query.where('site_id', '=', siteId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Marks an invitation accepted unless it was accepted or revoked meanwhile; runs inside the
 * transaction that grants the access, so both happen or neither.
 */
export async function markInvitationAccepted(db: MetaDb, invitationId: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ accepted_at: now })
    .where('id', '=', invitationId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
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

type TransferRow = Selectable<OwnershipTransfersTable>;

const toTransfer = (row: TransferRow): OwnershipTransfer => ({
  id: row.id,
  teamId: row.team_id,
  fromUserId: row.from_user_id,
  toEmail: row.to_email_normalized,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  acceptedAt: row.accepted_at,
  revokedAt: row.revoked_at,
});

/** A team has at most one open transfer: a new request replaces the old one. */
export async function replaceOwnershipTransfer(
  db: MetaDb,
  input: { teamId: number; fromUserId: number; toEmail: string; tokenHash: string; expiresAt: number },
  now: number,
): Promise<OwnershipTransfer> {
  return db.transaction().execute(async (trx) => {
    await cancelOwnershipTransfer(trx, input.teamId, now);
    const row = await trx
      .insertInto('ownership_transfers')
      .values({
        team_id: input.teamId,
        from_user_id: input.fromUserId,
        to_email_normalized: input.toEmail.toLowerCase(),
        token_hash: input.tokenHash,
        created_at: now,
        expires_at: input.expiresAt,
        accepted_at: null,
        revoked_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toTransfer(row);
  });
}

export async function openOwnershipTransfer(db: MetaDb, teamId: number): Promise<OwnershipTransfer | undefined> {
  const row = await db
    .selectFrom('ownership_transfers')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row && toTransfer(row);
}

export async function cancelOwnershipTransfer(db: MetaDb, teamId: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('ownership_transfers')
    .set({ revoked_at: now })
    .where('team_id', '=', teamId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function findOwnershipTransferByTokenHash(db: MetaDb, tokenHash: string): Promise<OwnershipTransfer | undefined> {
  const row = await db.selectFrom('ownership_transfers').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  return row && toTransfer(row);
}

export async function markOwnershipTransferAccepted(db: MetaDb, transferId: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('ownership_transfers')
    .set({ accepted_at: now })
    .where('id', '=', transferId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
