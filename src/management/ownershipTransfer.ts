import type { OwnershipTransfer as OwnershipTransferJson, TransferOutcome } from '../contracts/invitations.js';
import { AppError, badRequest, notFound } from '../errors.js';
import type { MetaDb } from '../stores/meta/database.js';
import { grantTeamRole, listTeamMembers } from '../stores/meta/guests.js';
import {
  findOwnershipTransferByTokenHash,
  markOwnershipTransferAccepted,
  type OwnershipTransfer,
  replaceOwnershipTransfer,
} from '../stores/meta/invitations.js';
import { acceptUrl, hashAcceptToken, INVITATION_LIFETIME_MS, newAcceptToken, parseEmail } from './invitations.js';

export function transferJson(transfer: OwnershipTransfer): OwnershipTransferJson {
  return {
    email: transfer.toEmail,
    status: 'pending' as const,
    created_at: new Date(transfer.createdAt).toISOString(),
    expires_at: new Date(transfer.expiresAt).toISOString(),
  };
}

/**
 * Step one of moving ownership: the owner names the new owner's address. Nothing changes until
 * that person accepts; the answer is the same whether or not the address has an account.
 */
export async function requestOwnershipTransfer(
  db: MetaDb,
  input: { teamId: number; fromUserId: number; email: string; baseUrl: string },
  now: number,
): Promise<TransferOutcome> {
  const email = parseEmail(input.email);
  const owners = (await listTeamMembers(db, input.teamId)).filter((m) => m.role === 'owner');
  if (owners.some((o) => o.email.toLowerCase() === email.toLowerCase())) throw badRequest('already_owner', `${email} already owns this team.`);
  const { token, hash } = newAcceptToken();
  const transfer = await replaceOwnershipTransfer(
    db,
    { teamId: input.teamId, fromUserId: input.fromUserId, toEmail: email, tokenHash: hash, expiresAt: now + INVITATION_LIFETIME_MS },
    now,
  );
  return {
    email,
    status: 'pending',
    expires_at: new Date(transfer.expiresAt).toISOString(),
    accept_url: acceptUrl(input.baseUrl, 'ownership-transfers', token),
  };
}

const invalidLink = () => notFound('This transfer link is not valid: it was cancelled, already used, or never existed.');

export async function openOwnershipTransferByToken(db: MetaDb, token: string, now: number): Promise<OwnershipTransfer> {
  const transfer = await findOwnershipTransferByTokenHash(db, hashAcceptToken(token));
  if (!transfer || transfer.acceptedAt !== null || transfer.revokedAt !== null) throw invalidLink();
  if (transfer.expiresAt <= now) {
    throw new AppError(
      410,
      'invitation_expired',
      `This transfer request expired at ${new Date(transfer.expiresAt).toISOString()}; ask the owner for a new one.`,
    );
  }
  return transfer;
}

/**
 * Step two: the named person accepts and becomes the owner; the previous owners stay on as
 * admins, so nobody loses access by handing over the team.
 */
export async function acceptOwnershipTransfer(
  db: MetaDb,
  input: { token: string; userId: number; userEmail: string },
  now: number,
): Promise<OwnershipTransfer> {
  const transfer = await openOwnershipTransferByToken(db, input.token, now);
  if (input.userEmail.toLowerCase() !== transfer.toEmail) {
    throw new AppError(403, 'wrong_account', 'This transfer was offered to another address; sign in with that address to accept it.');
  }
  await db.transaction().execute(async (trx) => {
    if (!(await markOwnershipTransferAccepted(trx, transfer.id, now))) throw invalidLink();
    await trx.updateTable('memberships').set({ role: 'admin' }).where('team_id', '=', transfer.teamId).where('role', '=', 'owner').execute();
    await grantTeamRole(trx, transfer.teamId, input.userId, 'owner', now);
  });
  return { ...transfer, acceptedAt: now };
}
