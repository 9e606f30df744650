import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithTeam } from '../../src/stores/meta/users.js';
import { createWebSession } from '../../src/stores/meta/webSessions.js';
import { launchBrowser } from '../support/browser.js';
import { startTestApp, type TestApp } from '../support/testApp.js';

// The web app's frame: the built files served by the service, app routes answered with the page,
// API misses still JSON, and the session the app reads before drawing anything.
describe('web app shell', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers app routes with the page, under a strict content security policy', async () => {
    for (const path of ['/', '/login', '/example.com', '/example.com/settings/general']) {
      const response = await fetch(`${t.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await response.text()).toContain('<div id="root">');
    }
  });

  it('serves hashed assets for a year and revalidates by ETag', async () => {
    const html = await (await fetch(t.url)).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const response = await fetch(`${t.url}${script}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toContain('immutable');
    const again = await fetch(`${t.url}${script}`, { headers: { 'if-none-match': response.headers.get('etag') ?? '' } });
    expect(again.status).toBe(304);
  });

  it('keeps API misses as JSON 404s', async () => {
    for (const path of ['/api/nothing', '/app/api/nothing', '/js/nothing.js']) {
      const response = await fetch(`${t.url}${path}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ code: 'not_found' });
    }
  });

  it('tells the app about set-up, then about the signed-in user', async () => {
    const before = await (await fetch(`${t.url}/app/api/session`)).json();
    expect(before).toEqual({ user: null, csrf_token: null, teams: [], needs_setup: true, mail: false });
    const now = t.app.clock.now();
    const { userId, teamId } = await createUserWithTeam(t.app.meta.db, { email: 'owner@example.com', name: 'Owner' }, now);
    const signedOut = await (await fetch(`${t.url}/app/api/session`)).json();
    expect(signedOut.needs_setup).toBe(false);
    const { token, session } = await createWebSession(t.app.meta.db, userId, now);
    const signedIn = await (await fetch(`${t.url}/app/api/session`, { headers: { cookie: `svc_session=${token}` } })).json();
    expect(signedIn).toMatchObject({ user: { id: userId, email: 'owner@example.com', name: 'Owner' }, csrf_token: session.csrfToken });
    expect(signedIn.teams).toEqual([{ id: teamId, name: "Owner's team", role: 'owner', locked: false, locked_reason: null }]);
  });

  it('runs in a real browser without errors', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${t.url}/no-such-site.example/settings/x/y`);
      await page.waitForSelector('main');
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
