import type { FastifyInstance } from 'fastify';
import { type AccountSessionList, sessionParams } from '../../contracts/account.js';
import type { Acknowledgement } from '../../contracts/acknowledgements.js';
import { notFound } from '../../errors.js';
import { parsePayload } from '../../management/payload.js';
import { deleteUserWebSession, deleteUserWebSessions, listUserWebSessions } from '../../stores/meta/webSessions.js';
import { requireViewer, type WebDeps } from '../signIn.js';

const iso = (epochMs: number) => new Date(epochMs).toISOString();

/** Account › Sessions: where the user is signed in, and signing out one of them or all but this one. */
export function accountSessionRoutes(scope: FastifyInstance, deps: WebDeps): void {
  scope.get('/app/api/account/sessions', async (request): Promise<AccountSessionList> => {
    const viewer = requireViewer(request);
    const sessions = await listUserWebSessions(deps.db, viewer.userId, deps.clock.now());
    return {
      sessions: sessions.map((session) => ({
        id: session.handle,
        browser: session.browser,
        os: session.os,
        signed_in_at: iso(session.createdAt),
        last_used_at: iso(session.lastUsedAt),
        current: session.handle === viewer.session.handle,
      })),
    };
  });

  scope.post('/app/api/account/sessions/:id/sign-out', async (request): Promise<Acknowledgement<'signed_out'>> => {
    const { id } = parsePayload(sessionParams, request.params);
    if (!(await deleteUserWebSession(deps.db, requireViewer(request).userId, id)))
      throw notFound('There is no such session among yours; it may have ended already.');
    return { signed_out: true };
  });

  scope.post('/app/api/account/sessions/sign-out-others', async (request): Promise<Acknowledgement<'signed_out'>> => {
    const viewer = requireViewer(request);
    await deleteUserWebSessions(deps.db, viewer.userId, viewer.token);
    return { signed_out: true };
  });
}
