import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/accounts/passwords.js';
import { getUserProfile, setPasswordHash } from '../../src/stores/meta/users.js';
import { startSmallSite } from '../query/smallSite.js';
import { launchBrowser, screenshotPath } from '../support/browser.js';
import { insertEvents } from '../support/eventFixtures.js';
import { type Account, bearer, type TestApp } from '../support/testApp.js';
import { signedInContext } from '../support/webSession.js';

// The dashboard in a real browser on the small site, whose figures are counted by hand
// (test/query/smallSite.ts): 8–9 Jan 2024, 4 visitors, 5 visits, 8 pageviews.
describe('the dashboard', () => {
  let t: TestApp;
  let account: Account;
  let browser: Browser;
  const range = '?period=custom&from=2024-01-08&to=2024-01-09';

  beforeAll(async () => {
    ({ t, account } = await startSmallSite());
    // A page path that is markup: it must show as text.
    await insertEvents(t.app, account.siteId, [{ visitor: 'mallory', at: '2024-01-09 18:00:00', page: '/<img src=x onerror=alert(1)>' }]);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signedIn(options: { dark?: boolean; phone?: boolean } = {}): Promise<{ context: BrowserContext; page: Page; dialogs: string[] }> {
    const context = await signedInContext(browser, t, account.userId, options);
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    return { context, page, dialogs };
  }

  const stat = (page: Page, metric: string) => page.locator(`[data-metric="${metric}"] .stat-value`);

  it('shows the right top stats, graph and panels, and renders tracked markup as text', async () => {
    const { context, page, dialogs } = await signedIn();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${t.url}/${account.domain}${range}`);
    await expect.poll(() => stat(page, 'visitors').textContent(), { timeout: 15_000 }).toBe('5');
    expect(await stat(page, 'pageviews').textContent()).toBe('9');
    expect(await stat(page, 'visits').textContent()).toBe('6');
    // Two days are drawn hour by hour, as in Plausible (up to 48 hours: hourly).
    await expect.poll(() => page.locator('.graph-plot').getAttribute('data-points'), { timeout: 15_000 }).toBe('48');
    const pages = page.getByRole('region', { name: 'Pages' });
    await pages.locator('.panel-row').first().waitFor();
    expect(await pages.locator('.panel-row[data-value="/pricing"] .num').first().textContent()).toBe('2');
    await expect.poll(() => pages.getByText('/<img src=x onerror=alert(1)>').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    // Every panel, counted by hand from the small site: the first figure of a row is its visitors.
    const firstFigure = async (panel: string, tab: string, value: string) => {
      const region = page.getByRole('region', { name: panel });
      await region.getByRole('tab', { name: tab }).click();
      const row = region.locator(`.panel-row[data-value="${value}"] .num`).first();
      await row.waitFor({ timeout: 15_000 });
      return row.textContent();
    };
    expect(await firstFigure('Locations', 'Countries', 'DE')).toBe('2');
    expect(await firstFigure('Locations', 'Countries', 'FR')).toBe('1');
    expect(await firstFigure('Devices', 'Browsers', 'Chrome')).toBe('2');
    expect(await firstFigure('Devices', 'Screen sizes', 'Laptop')).toBe('1');
    // The behaviours card (on its goals) answers on its own: its figures are read once they are there.
    const signup = page.getByRole('region', { name: 'Behaviours' }).locator('.panel-row[data-value="Signup"] .num');
    await expect.poll(() => signup.allTextContents(), { timeout: 15_000 }).toEqual(['1', '1', '20%']);
    expect(await firstFigure('Pages', 'Entry pages', '/pricing')).toBe('1');
    expect(await firstFigure('Sources', 'Channels', 'Direct')).toBe('3');
    await page.getByRole('region', { name: 'Locations' }).getByRole('tab', { name: 'Map' }).click();
    await page.getByRole('region', { name: 'Locations' }).locator('path.has-data[data-country="DE"]').waitFor({ timeout: 15_000 });
    expect(await firstFigure('Sources', 'Sources', 'Google')).toBe('2');
    await page.screenshot({ path: screenshotPath('dashboard'), fullPage: true });
    await context.close();
  });

  it('filters everything by a clicked row, and the chip removes it', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${t.url}/${account.domain}${range}`);
    const pages = page.getByRole('region', { name: 'Pages' });
    await pages.locator('.panel-row[data-value="/pricing"] .row-label').click();
    await page.getByText('Page is /pricing').waitFor();
    expect(new URL(page.url()).searchParams.get('filters')).toBe(JSON.stringify([['is', 'event:page', ['/pricing']]]));
    await expect.poll(() => stat(page, 'visitors').textContent(), { timeout: 15_000 }).toBe('2');
    await page.screenshot({ path: screenshotPath('dashboard-filtered'), fullPage: true });
    await page.getByRole('button', { name: 'Remove filter: Page is /pricing' }).click();
    await expect.poll(() => stat(page, 'visitors').textContent(), { timeout: 15_000 }).toBe('5');
    await context.close();
  });

  it('keeps the date range in the URL, and back restores it', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${t.url}/${account.domain}${range}`);
    await expect.poll(() => stat(page, 'visitors').textContent(), { timeout: 15_000 }).toBe('5');
    await page.getByLabel('Date range').selectOption('day');
    await page.waitForURL(/period=day/);
    await expect.poll(() => stat(page, 'visitors').textContent(), { timeout: 15_000 }).toBe('0');
    // An empty period says what to do about it.
    await page.getByRole('status').filter({ hasText: 'No visitors in this period.' }).getByRole('link', { name: 'Settings › Tracker' }).waitFor();
    await page.screenshot({ path: screenshotPath('dashboard-empty-period'), fullPage: true });
    await page.goBack();
    await page.waitForURL(/from=2024-01-08/);
    await expect.poll(() => stat(page, 'visitors').textContent(), { timeout: 15_000 }).toBe('5');
    await context.close();
  });

  it('serves shared links read-only, with and without a password', async () => {
    const create = async (body: Record<string, unknown>) =>
      (
        await fetch(`${t.url}/api/v1/sites/shared-links`, {
          method: 'PUT',
          headers: { ...bearer(account.key), 'content-type': 'application/json' },
          body: JSON.stringify({ site_id: account.domain, ...body }),
        })
      ).json();
    const open = await create({ name: 'Open' });
    const closed = await create({ name: 'Board', password: 'board password' });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${open.url.replace(/^http:\/\/localhost:\d+/, t.url)}&period=custom&from=2024-01-08&to=2024-01-09`);
    await expect.poll(() => stat(page, 'visitors').textContent(), { timeout: 15_000 }).toBe('5');
    expect(await page.getByRole('link', { name: 'Settings' }).count()).toBe(0);
    await page.goto(closed.url.replace(/^http:\/\/localhost:\d+/, t.url));
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Open the dashboard' }).click();
    await page.getByText('That is not the password of this shared dashboard.').waitFor();
    await page.getByLabel('Password').fill('board password');
    await page.getByRole('button', { name: 'Open the dashboard' }).click();
    await page.locator('.top-stats').waitFor();
    await page.screenshot({ path: screenshotPath('dashboard-shared'), fullPage: true });
    const gone = await fetch(`${t.url}/app/api/share/no-such-slug`);
    expect(gone.status).toBe(404);
    await context.close();
  });

  it('asks for the site and loads its code while the session is still being read', async () => {
    const { context, page } = await signedIn();
    const asked: string[] = [];
    const both = () => asked.includes(`/app/api/sites/${account.domain}`) && asked.some((path) => /\/assets\/DashboardPage-.+\.js$/.test(path));
    let askedForBoth = () => {};
    const bothAsked = new Promise<void>((done) => {
      askedForBoth = done;
    });
    page.on('request', (request) => {
      asked.push(new URL(request.url()).pathname);
      if (both()) askedForBoth();
    });
    let seenWhileHeld = false;
    // The session's answer is held until the page has asked for both (or for five seconds at most).
    await page.route('**/app/api/session', async (route) => {
      await Promise.race([bothAsked, new Promise((done) => setTimeout(done, 5_000))]);
      seenWhileHeld = both();
      await route.continue();
    });
    await page.goto(`${t.url}/${account.domain}${range}`);
    await expect.poll(() => stat(page, 'visitors').textContent(), { timeout: 15_000 }).toBe('5');
    expect(seenWhileHeld).toBe(true);
    await context.close();
  });

  it('sends a signed-out visitor to sign in, then shows the dashboard they asked for', async () => {
    await setPasswordHash(t.app.meta.db, account.userId, await hashPassword('correct horse battery'));
    const email = (await getUserProfile(t.app.meta.db, account.userId))?.email ?? '';
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${t.url}/${account.domain}${range}`);
    await page.waitForURL(/\/login\?next=/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The site's answer sent before the sign-in (signed out) is not the one the dashboard shows.
    await expect.poll(() => stat(page, 'visitors').textContent(), { timeout: 15_000 }).toBe('5');
    expect(new URL(page.url()).pathname).toBe(`/${account.domain}`);
    await context.close();
  });

  it('saves screenshots in dark mode and on a phone', async () => {
    for (const [name, options] of [
      ['dashboard-dark', { dark: true }],
      ['dashboard-phone', { phone: true }],
    ] as const) {
      const { context, page } = await signedIn(options);
      await page.goto(`${t.url}/${account.domain}${range}`);
      await expect.poll(() => stat(page, 'visitors').textContent(), { timeout: 15_000 }).toBe('5');
      await page.getByRole('region', { name: 'Pages' }).locator('.panel-row').first().waitFor();
      await page.screenshot({ path: screenshotPath(name), fullPage: true });
      await context.close();
    }
  });
});
