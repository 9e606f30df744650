import type { FastifyInstance } from 'fastify';
import { type AcceptanceOutcome, acceptance } from '../../../contracts/invitations.js';
import { resolveAcceptingAccount } from '../../../management/acceptingAccount.js';
import { acceptInvitation, openInvitation } from '../../../management/invitations.js';
import { acceptOwnershipTransfer, openOwnershipTransferByToken } from '../../../management/ownershipTransfer.js';
import { parsePayload } from '../../../management/payload.js';
import type { ManagementDeps } from './context.js';

/**
 * Token links, without an API key: the person accepting may have no account yet. The token
 * opens the invitation; the account is proved by its password or created with a name and one.
 */
export function acceptanceRoutes(app: FastifyInstance, deps: Pick<ManagementDeps, 'db' | 'clock'>): void {
  const { db, clock } = deps;

  app.post('/api/invitations/accept', { bodyLimit: 16 * 1024 }, async (request): Promise<AcceptanceOutcome> => {
    const body = parsePayload(acceptance, request.body);
    const now = clock.now();
    const invitation = await openInvitation(db, body.token, now);
    const account = await resolveAcceptingAccount(db, { email: invitation.email, name: body.name, password: body.password }, now);
    const accepted = await acceptInvitation(db, { token: body.token, userId: account.userId, userEmail: account.email }, now);
    return { accepted: true, email: accepted.email, role: accepted.role, account_created: account.created };
  });

  app.post('/api/ownership-transfers/accept', { bodyLimit: 16 * 1024 }, async (request): Promise<AcceptanceOutcome> => {
    const body = parsePayload(acceptance, request.body);
    const now = clock.now();
    const transfer = await openOwnershipTransferByToken(db, body.token, now);
    const account = await resolveAcceptingAccount(db, { email: transfer.toEmail, name: body.name, password: body.password }, now);
    await acceptOwnershipTransfer(db, { token: body.token, userId: account.userId, userEmail: account.email }, now);
    return { accepted: true, email: account.email, role: 'owner', account_created: account.created };
  });
}
