import type { App } from '../../src/app.js';
import { createWebSession } from '../../src/stores/meta/webSessions.js';

/** A signed-in web-app session for a user, as the sign-in page would create; headers to send with it. */
export async function signedInHeaders(app: App, userId: number): Promise<{ cookie: string; 'x-csrf-token': string; token: string }> {
  const { token, session } = await createWebSession(app.meta.db, userId, app.clock.now());
  return { cookie: `svc_session=${token}`, 'x-csrf-token': session.csrfToken, token };
}
