import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode, totpStep } from '../../src/accounts/totp.js';
import { createUserWithTeam } from '../../src/stores/meta/users.js';
import { type MailServer, type ReceivedMail, startMailServer } from '../mail/mailServer.js';
import { launchBrowser, screenshotPath } from '../support/browser.js';
import { ManualClock } from '../support/manualClock.js';
import { startTestApp, type TestApp } from '../support/testApp.js';
import { signedInHeaders } from '../support/webSession.js';

// The account's security (docs/settings.md, Account) in real Chromium: a reset from the sign-in page through the emailed link,
// turning two-factor sign-in on with a code computed here from the secret the page shows, signing
// in with a code and with a recovery code (good once), and signing out another session.
const clock = new ManualClock(Date.parse('2026-05-04T09:00:00Z'));
let t: TestApp;
let mail: MailServer;
let browser: Browser;

beforeAll(async () => {
  mail = await startMailServer();
  t = await startTestApp({ clock, env: { SMTP_URL: `smtp://127.0.0.1:${mail.port}?from=accounts@svc.example` } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await mail?.close();
});

async function nextMail(already: number): Promise<ReceivedMail> {
  for (let i = 0; i < 200 && mail.mails.length <= already; i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
  const arrived = mail.mails[already];
  if (!arrived) throw new Error('No mail arrived within five seconds.');
  return arrived;
}

const newPage = async (): Promise<{ context: BrowserContext; page: Page }> => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  return { context, page: await context.newPage() };
};

async function signInWithPassword(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${t.url}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Light, dark and phone-width screenshots of the page as it is. */
async function screenshots(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: screenshotPath(name), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: screenshotPath(`${name}-dark`), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
  const size = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 812 });
  await page.screenshot({ path: screenshotPath(`${name}-phone`), fullPage: true });
  if (size) await page.setViewportSize(size);
}

describe('accounts in the browser', () => {
  it('resets a forgotten password from the sign-in page through the emailed link', async () => {
    await createUserWithTeam(t.app.meta.db, { email: 'rita@example.com', name: 'Rita Reset', password: 'forgotten password' }, clock.now());
    const { context, page } = await newPage();
    await page.goto(`${t.url}/login`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await page.getByLabel('Email').fill('rita@example.com');
    const before = mail.mails.length;
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await page.getByRole('status').filter({ hasText: 'If an account uses that address' }).waitFor();
    await screenshots(page, 'password-reset-sent');

    const link = /http:\/\/localhost:0(\/password-reset\?token=[\w-]+)/.exec((await nextMail(before)).text)?.[1];
    expect(link).toBeDefined();
    await page.goto(`${t.url}${link}`);
    await page.getByLabel('New password').fill('remembered password');
    await screenshots(page, 'password-reset-choose');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByRole('heading', { name: 'Password changed' }).waitFor();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await signInWithPassword(page, 'rita@example.com', 'remembered password');
    await page.getByRole('heading', { name: 'Add your first site' }).waitFor();

    // The link was good once.
    await page.goto(`${t.url}${link}`);
    await page.getByLabel('New password').fill('a third password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByRole('alert').filter({ hasText: 'already used' }).waitFor();
    await context.close();
  });

  let recovery: string[] = [];

  it('turns two-factor sign-in on with a code computed from the secret the page shows', async () => {
    const { userId } = await createUserWithTeam(t.app.meta.db, { email: 'tess@example.com', name: 'Tess Two', password: 'tess password' }, clock.now());
    const { context, page } = await newPage();
    await context.addCookies([{ name: 'svc_session', value: (await signedInHeaders(t.app, userId)).token, url: t.url }]);
    await page.goto(`${t.url}/settings/account`);
    await page.getByLabel('Your password, to begin').fill('tess password');
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByRole('img', { name: /QR code of the two-factor secret/ }).waitFor();
    await screenshots(page, 'account-two-factor-setup');

    await page.getByLabel('The six-digit code the app shows').fill('000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('alert').filter({ hasText: 'That code is not right' }).waitFor();
    await page.getByLabel('The six-digit code the app shows').fill(totpCode(secret, totpStep(clock.now())));
    await page.getByRole('button', { name: 'Turn on' }).click();
    // allTextContents does not wait: the codes appear once the server has answered.
    const codes = page.getByTestId('recovery-codes').locator('code');
    await codes.nth(9).waitFor();
    recovery = (await codes.allTextContents()).map((code) => code.trim());
    expect(recovery).toHaveLength(10);
    await screenshots(page, 'account-recovery-codes');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('10 of 10 recovery codes left.').waitFor();
    await screenshots(page, 'account');
    await context.close();

    // Signing in now asks for a code after the password: a fresh one (a code is good once, so the next step's).
    clock.advance(30_000);
    const second = await newPage();
    await signInWithPassword(second.page, 'tess@example.com', 'tess password');
    await second.page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await screenshots(second.page, 'sign-in-two-factor');
    await second.page.getByLabel('Authentication code').fill('123456');
    await second.page.getByRole('button', { name: 'Verify' }).click();
    await second.page.getByRole('alert').filter({ hasText: 'That code is not right' }).waitFor();
    await second.page.getByLabel('Authentication code').fill(totpCode(secret, totpStep(clock.now())));
    await second.page.getByRole('button', { name: 'Verify' }).click();
    await second.page.getByRole('heading', { name: 'Add your first site' }).waitFor();
    await second.context.close();
  });

  it('signs in with a recovery code once', async () => {
    const first = await newPage();
    await signInWithPassword(first.page, 'tess@example.com', 'tess password');
    await first.page.getByLabel('Authentication code').fill(recovery[0] as string);
    await first.page.getByRole('button', { name: 'Verify' }).click();
    await first.page.getByRole('status').filter({ hasText: 'You signed in with a recovery code; 9 left.' }).waitFor();
    await first.page.getByText('9 of 10 recovery codes left.').waitFor();
    await first.context.close();

    const again = await newPage();
    await signInWithPassword(again.page, 'tess@example.com', 'tess password');
    await again.page.getByLabel('Authentication code').fill(recovery[0] as string);
    await again.page.getByRole('button', { name: 'Verify' }).click();
    await again.page.getByRole('alert').filter({ hasText: 'That code is not right' }).waitFor();
    await again.context.close();
  });

  it('lists the sessions by browser and system, and signs out another one', async () => {
    await createUserWithTeam(t.app.meta.db, { email: 'sam@example.com', name: 'Sam Sessions', password: 'sam password' }, clock.now());
    const elsewhere = await fetch(`${t.url}/app/api/sign-in`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0',
      },
      body: JSON.stringify({ email: 'sam@example.com', password: 'sam password' }),
    });
    const otherCookie = elsewhere.headers.get('set-cookie')?.split(';')[0] ?? '';
    const stillIn = async () => (await (await fetch(`${t.url}/app/api/session`, { headers: { cookie: otherCookie } })).json()).user !== null;
    expect(await stillIn()).toBe(true);

    const { context, page } = await newPage();
    await signInWithPassword(page, 'sam@example.com', 'sam password');
    await page.getByRole('heading', { name: 'Add your first site' }).waitFor();
    await page.goto(`${t.url}/settings/account`);
    const list = page.getByRole('list', { name: 'Signed-in sessions' });
    await list.getByText('Firefox on Windows').waitFor();
    expect(await list.locator('li').count()).toBe(2);
    await screenshots(page, 'account-sessions');
    await page.getByRole('button', { name: 'Sign out Firefox on Windows' }).click();
    await expect.poll(() => list.locator('li').count()).toBe(1);
    expect(await stillIn()).toBe(false);
    await context.close();
  });

  it('shows a team owner which members have two-factor sign-in on, and no one else', async () => {
    const tess = await t.app.meta.db.selectFrom('users').select('id').where('email_normalized', '=', 'tess@example.com').executeTakeFirstOrThrow();
    const team = await t.app.meta.db.selectFrom('memberships').select('team_id').where('user_id', '=', tess.id).executeTakeFirstOrThrow();
    const sam = await t.app.meta.db.selectFrom('users').select('id').where('email_normalized', '=', 'sam@example.com').executeTakeFirstOrThrow();
    await t.app.meta.db.insertInto('memberships').values({ team_id: team.team_id, user_id: sam.id, role: 'admin', created_at: clock.now() }).execute();
    const list = (userId: number) =>
      signedInHeaders(t.app, userId).then((headers) => fetch(`${t.url}/app/api/teams/${team.team_id}/members/two-factor`, { headers }));
    expect(await (await list(tess.id)).json()).toEqual({
      members: [
        { email: 'tess@example.com', two_factor: true },
        { email: 'sam@example.com', two_factor: false },
      ],
    });
    expect((await list(sam.id)).status).toBe(403);

    const { context, page } = await newPage();
    await context.addCookies([{ name: 'svc_session', value: (await signedInHeaders(t.app, tess.id)).token, url: t.url }]);
    await page.goto(`${t.url}/settings/team/members`);
    await page.locator('li.member').filter({ hasText: 'tess@example.com' }).getByText('two-factor on').waitFor();
    await page.locator('li.member').filter({ hasText: 'sam@example.com' }).getByText('no two-factor').waitFor();
    await page.screenshot({ path: screenshotPath('team-members-two-factor'), fullPage: true });
    await context.close();
  });

  it('deletes one’s own account, refused while it owns a team with other members', async () => {
    const tess = await t.app.meta.db.selectFrom('users').select('id').where('email_normalized', '=', 'tess@example.com').executeTakeFirstOrThrow();
    const { context, page } = await newPage();
    await context.addCookies([{ name: 'svc_session', value: (await signedInHeaders(t.app, tess.id)).token, url: t.url }]);
    await page.goto(`${t.url}/settings/account`);
    await page.getByLabel('Your password, to confirm').last().fill('tess password');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await dialog.getByRole('alert').filter({ hasText: "You are the owner of “Tess Two's team”, which has other members or sites" }).waitFor();
    await page.screenshot({ path: screenshotPath('account-delete-refused'), fullPage: true });
    await context.close();

    const { userId } = await createUserWithTeam(t.app.meta.db, { email: 'dora@example.com', name: 'Dora', password: 'dora password' }, clock.now());
    const dora = await newPage();
    await dora.context.addCookies([{ name: 'svc_session', value: (await signedInHeaders(t.app, userId)).token, url: t.url }]);
    await dora.page.goto(`${t.url}/settings/account`);
    await dora.page.getByLabel('Your password, to confirm').last().fill('dora password');
    await dora.page.getByRole('button', { name: 'Delete my account' }).click();
    await dora.page.getByRole('dialog').getByRole('button', { name: 'Delete my account' }).click();
    await dora.page.waitForURL(/\/login/);
    expect(await t.app.meta.db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()).toBeUndefined();
    await dora.context.close();
  });
});
