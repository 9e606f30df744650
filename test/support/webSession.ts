import type { Browser, BrowserContext } from 'playwright-core';
import type { App } from '../../src/app.js';
import { createWebSession } from '../../src/stores/meta/webSessions.js';

/** A signed-in web-app session for a user, as the sign-in page would create; headers to send with it. */
export async function signedInHeaders(app: App, userId: number): Promise<{ cookie: string; 'x-csrf-token': string; token: string }> {
  const { token, session } = await createWebSession(app.meta.db, userId, app.clock.now());
  return { cookie: `svc_session=${token}`, 'x-csrf-token': session.csrfToken, token };
}

/**
 * A new browser context signed in as a user of the app served at `url`: a desktop window 1280
 * wide (`height` tall, 900 unless given) or a phone (375 × 812), light or dark.
 */
export async function signedInContext(
  browser: Browser,
  served: { app: App; url: string },
  userId: number,
  options: { dark?: boolean; phone?: boolean; height?: number; bypassCSP?: boolean } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: options.phone ? { width: 375, height: 812 } : { width: 1280, height: options.height ?? 900 },
    colorScheme: options.dark ? 'dark' : 'light',
    bypassCSP: options.bypassCSP ?? false,
  });
  const { token } = await signedInHeaders(served.app, userId);
  await context.addCookies([{ name: 'svc_session', value: token, url: served.url }]);
  return context;
}
