import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSite } from '../../src/management/sites.js';
import { createUserWithTeam, findUserByEmail } from '../../src/stores/meta/users.js';
import { launchBrowser, screenshotPath } from '../support/browser.js';
import { collect } from '../support/collect.js';
import { svc } from '../support/processes.js';
import { startTestApp, type TestApp } from '../support/testApp.js';
import { signedInContext } from '../support/webSession.js';

// A new installation as its first user meets it: set-up, sign-out and in, a site, its snippet,
// the first pageview arriving, the sites list and its team picker.
describe('accounts and sites in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    t = await startTestApp({ env: { TRUSTED_PROXIES: '127.0.0.1' } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('sets up the first account, signs out and in, adds a site and sees its first pageview arrive', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(t.url);
    await page.waitForURL(`${t.url}/setup`);
    await page.screenshot({ path: screenshotPath('setup'), fullPage: true });
    await page.getByLabel('Your name').fill('Ada Owner');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Add your first site' }).waitFor();
    await page.screenshot({ path: screenshotPath('sites-empty'), fullPage: true });

    // The set-up page is gone once someone exists.
    const again = await fetch(`${t.url}/app/api/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'x@example.com', name: 'X', password: '12345678' }),
    });
    expect(again.status).toBe(409);

    await page.locator('details.menu > summary').click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login/);
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('That email address and password do not match an account.').waitFor();
    await page.screenshot({ path: screenshotPath('sign-in-wrong-password'), fullPage: true });
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sites' }).waitFor();

    await page.getByRole('link', { name: '+ Add a site' }).click();
    await page.getByLabel('Domain').fill('https://www.Blog.Example.org/');
    await page.getByLabel('Reporting time zone').selectOption('Europe/Berlin');
    await page.getByRole('button', { name: 'Add site' }).click();
    const snippet = (await page.getByTestId('snippet').textContent()) ?? '';
    expect(snippet).toContain('data-domain="blog.example.org"');
    expect(snippet).toContain('/js/script.js');
    await page.screenshot({ path: screenshotPath('add-site-waiting'), fullPage: true });
    expect(await page.getByTestId('waiting').textContent()).toContain('Waiting for the first pageview');

    const sent = await collect(t, { n: 'pageview', d: 'blog.example.org', u: 'https://blog.example.org/hello' }, { ip: '81.2.69.142' });
    expect(sent.status).toBe(202);
    await t.app.ingestion.buffer.flush();
    await page.locator('.waiting.arrived').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('waiting').textContent()).toContain('/hello');
    await page.screenshot({ path: screenshotPath('add-site-arrived'), fullPage: true });

    await page.goto(t.url);
    const card = page.locator('[data-site="blog.example.org"]');
    await card
      .locator('.site-visitors')
      .filter({ hasText: /^1\s*visitor in 24 h/ })
      .waitFor();
    await page.screenshot({ path: screenshotPath('sites'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: screenshotPath('sites-dark'), fullPage: true });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.screenshot({ path: screenshotPath('sites-phone'), fullPage: true });
    await context.close();
  });

  it('switches between the teams of a member of several, with each team’s sites', async () => {
    const now = t.app.clock.now();
    const ada = await findUserByEmail(t.app.meta.db, 'ada@example.com');
    expect(ada).toBeDefined();
    const { teamId } = await createUserWithTeam(t.app.meta.db, { email: 'bo@example.com', name: 'Bo' }, now);
    await registerSite(t.app.meta.db, { teamId, domain: 'shop.example.com', timezone: 'Etc/UTC' }, now);
    await t.app.meta.db.insertInto('memberships').values({ team_id: teamId, user_id: ada!.id, role: 'viewer', created_at: now }).execute();

    const context = await signedInContext(browser, t, ada!.id);
    const page = await context.newPage();
    await page.goto(t.url);
    await page.locator('[data-site="blog.example.org"]').waitFor();
    await page.getByLabel('Team').selectOption({ label: "Bo's team" });
    await page.waitForURL(`${t.url}/?team=${teamId}`);
    await page
      .locator('[data-site="shop.example.com"] .site-visitors')
      .filter({ hasText: /^0\s*visitors in 24 h/ })
      .waitFor();
    expect(await page.locator('[data-site="blog.example.org"]').count()).toBe(0);
    // A viewer of Bo's team cannot add sites to it.
    expect(await page.getByRole('link', { name: '+ Add a site' }).count()).toBe(0);
    await page.screenshot({ path: screenshotPath('sites-other-team'), fullPage: true });
    await context.close();
  });

  it('switches teams on the team settings page with the same picker as the sites list', async () => {
    const now = t.app.clock.now();
    const ada = await findUserByEmail(t.app.meta.db, 'ada@example.com');
    const { teamId } = await createUserWithTeam(t.app.meta.db, { email: 'cy@example.com', name: 'Cy' }, now);
    await t.app.meta.db.insertInto('memberships').values({ team_id: teamId, user_id: ada!.id, role: 'admin', created_at: now }).execute();
    for (const [options, suffix] of [
      [{}, ''],
      [{ dark: true }, '-dark'],
      [{ phone: true }, '-phone'],
    ] as const) {
      const context = await signedInContext(browser, t, ada!.id, options);
      const page = await context.newPage();
      if ('phone' in options) await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${t.url}/settings/team/members`);
      await page.locator('select.team-select').selectOption({ label: "Cy's team" });
      await page.waitForURL(`${t.url}/settings/team/members?team=${teamId}`);
      // Cy's members, not those of the team shown before.
      await page.locator('.settings-list li', { hasText: 'cy@example.com' }).waitFor();
      expect(await page.locator('.settings-list li', { hasText: 'ada@example.com' }).locator('.badge', { hasText: 'owner' }).count()).toBe(0);
      expect(await page.locator('select.team-select').inputValue()).toBe(String(teamId));
      await page.screenshot({ path: screenshotPath(`team-settings-other-team${suffix}`), fullPage: true });
      await context.close();
    }
  });

  it('limits failed sign-ins per address, with the same sentence for unknown addresses', async () => {
    const attempt = (email: string) =>
      fetch(`${t.url}/app/api/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'nope-nope' }),
      });
    const unknown = await attempt('nobody@example.com');
    expect(unknown.status).toBe(401);
    expect((await unknown.json()).error).toBe('That email address and password do not match an account.');
    let last: Response | undefined;
    for (let i = 0; i < 10; i += 1) last = await attempt('limited@example.com');
    expect(last?.status).toBe(401);
    const limited = await attempt('limited@example.com');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('changes the password and signs out the other sessions', async () => {
    const signIn = async (password: string) => {
      const res = await fetch(`${t.url}/app/api/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ada@example.com', password }),
      });
      return { status: res.status, cookie: res.headers.get('set-cookie')?.split(';')[0] ?? '' };
    };
    const first = await signIn('correct horse battery');
    const second = await signIn('correct horse battery');
    // The first browser changes the password on the account page.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const [name, value] = first.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: t.url }]);
    const page = await context.newPage();
    await page.goto(`${t.url}/settings/account`);
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password').fill('battery staple horse');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Current password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').filter({ hasText: 'Password changed.' }).waitFor();
    await page.screenshot({ path: screenshotPath('account-password-changed'), fullPage: true });
    await context.close();
    expect((await (await fetch(`${t.url}/app/api/session`, { headers: { cookie: first.cookie } })).json()).user).not.toBeNull();
    expect((await (await fetch(`${t.url}/app/api/session`, { headers: { cookie: second.cookie } })).json()).user).toBeNull();
    expect((await signIn('battery staple horse')).status).toBe(200);
  });

  it('keeps the session in an HttpOnly, SameSite=Lax cookie for 14 days, Secure behind an https address', async () => {
    const cookieOf = async () => {
      const res = await fetch(`${t.url}/app/api/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ada@example.com', password: 'battery staple horse' }),
      });
      expect(res.status).toBe(200);
      return (res.headers.get('set-cookie') ?? '').split(/;\s*/).map((part) => part.toLowerCase());
    };
    const plain = await cookieOf();
    expect(plain).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', `max-age=${14 * 24 * 3600}`]));
    expect(plain).not.toContain('secure');
    // The same data, served as https://analytics.example.com (behind a TLS proxy).
    await t.app.close();
    t = await startTestApp({ dataDir: t.dataDir, env: { TRUSTED_PROXIES: '127.0.0.1', BASE_URL: 'https://analytics.example.com' } });
    expect(await cookieOf()).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'secure']));
  });

  it('says on the sign-in page that mail is not set up, and names the command that prints a reset link', async () => {
    const refused = await fetch(`${t.url}/app/api/password-reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com' }),
    });
    expect(refused.status).toBe(409);
    expect((await refused.json()).code).toBe('mail_not_set_up');
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${t.url}/login`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByText('./bin/svc user reset-password --email you@example.com').waitFor();
    expect(await page.getByRole('status').textContent()).toContain('This server does not send email (SMTP_URL is not set)');
    await page.screenshot({ path: screenshotPath('password-reset-no-mail'), fullPage: true });
    await context.close();
  });

  it('prints a reset link, turns two-factor sign-in off and deletes a user from the command line', async () => {
    const now = t.app.clock.now();
    const { userId } = await createUserWithTeam(t.app.meta.db, { email: 'cli@example.com', name: 'Cli', password: 'cli password' }, now);
    const printed = await svc(['user', 'reset-password', '--email', 'CLI@example.com', '--json'], t.env);
    expect(printed.code).toBe(0);
    const { link } = JSON.parse(printed.stdout);
    const token = new URL(link).searchParams.get('token');
    const reset = await fetch(`${t.url}/app/api/password-reset/complete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password: 'printed link password' }),
    });
    expect(reset.status).toBe(200);

    await t.app.meta.db.updateTable('users').set({ totp_secret: 'v1.x.y.z', totp_enabled_at: now }).where('id', '=', userId).execute();
    expect((await svc(['user', 'disable-2fa', '--email', 'cli@example.com'], t.env)).code).toBe(0);
    const after = await t.app.meta.db.selectFrom('users').select(['totp_secret', 'totp_enabled_at']).where('id', '=', userId).executeTakeFirstOrThrow();
    expect(after).toEqual({ totp_secret: null, totp_enabled_at: null });

    // Ada owns a team with a site: refused with a sentence; the new user's empty team goes with them.
    const refused = await svc(['user', 'delete', '--email', 'ada@example.com'], t.env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^svc: You are the owner of “Ada Owner's team”, which has other members or sites: transfer its ownership/);
    expect((await svc(['user', 'delete', '--email', 'cli@example.com'], t.env)).code).toBe(0);
    expect(await findUserByEmail(t.app.meta.db, 'cli@example.com')).toBeUndefined();
    expect((await svc(['user', 'delete', '--email', 'cli@example.com'], t.env)).stderr).toBe('svc: There is no user with email cli@example.com.\n');
  });
});
