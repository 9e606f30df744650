import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantTeamRole } from '../../src/stores/meta/guests.js';
import { seriousViolations } from '../support/axe.js';
import { launchBrowser, screenshotPath } from '../support/browser.js';
import { type FixtureEvent, insertEvents } from '../support/eventFixtures.js';
import { ManualClock } from '../support/manualClock.js';
import { type Account, bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { signedInHeaders } from '../support/webSession.js';

// The dashboard's Explore view (docs/dashboard.md "Explore", docs/explore.md): a site whose visits
// on Tue 9 Jan 2024 took these paths, seen on Wed 10 Jan at noon (UTC), the default 28 days:
//   4 visitors  /, /pricing, /signup, /welcome, /
//   1 visitor   /, /pricing, /signup, /welcome, /account, /settings, /billing, /invoices
//   3 visitors  /, /blog/a, /pricing, /docs
//   2 visitors  /blog/b, /blog/a, /
//   1 visitor   /, /pricing, /docs
//   1 visitor   /pricing, Signup on /pricing (in the United States; everyone else in Germany)
// Forward, the most common first step is / (11 visitors), then /pricing (6 of them next), /signup
// (5), /welcome (5); after it comes / again (4), already taken, so /account (1), then /settings:
// six steps, and /billing offered next. Backward from /: /welcome (4), /signup, /pricing, and
// before it only / again, so the journey stops at four steps.
const NOW = '2024-01-10T12:00:00Z';
const PATHS: [number, string, (string | [string, string])[]][] = [
  [4, 'DE', ['/', '/pricing', '/signup', '/welcome', '/']],
  [1, 'DE', ['/', '/pricing', '/signup', '/welcome', '/account', '/settings', '/billing', '/invoices']],
  [3, 'DE', ['/', '/blog/a', '/pricing', '/docs']],
  [2, 'DE', ['/blog/b', '/blog/a', '/']],
  [1, 'DE', ['/', '/pricing', '/docs']],
  [1, 'US', ['/pricing', ['Signup', '/pricing']]],
];
const FORWARD = ['/', '/pricing', '/signup', '/welcome', '/account', '/settings'];
const BACKWARD = ['/', '/welcome', '/signup', '/pricing'];

function visits(): FixtureEvent[] {
  let n = 0;
  return PATHS.flatMap(([count, country, path]) =>
    Array.from({ length: count }, () => {
      n += 1;
      const visitor = `visitor-${n}`;
      const start = Date.parse('2024-01-09T06:00:00Z') + n * 3_600_000;
      return path.map((step, i): FixtureEvent => {
        const at = new Date(start + i * 60_000).toISOString();
        return typeof step === 'string' ? { visitor, at, page: step, country } : { visitor, at, name: step[0], page: step[1], country };
      });
    }),
  ).flat();
}

describe('the Explore view', () => {
  let t: TestApp;
  let account: Account;
  let browser: Browser;
  let viewerId: number;
  let sharedUrl: string;

  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(Date.parse(NOW)) });
    account = await createAccount(t.app, { domain: 'journeys.example.com' });
    await insertEvents(t.app, account.siteId, visits());
    const viewer = await createAccount(t.app);
    await grantTeamRole(t.app.meta.db, account.teamId, viewer.userId, 'viewer', t.app.clock.now());
    viewerId = viewer.userId;
    const response = await fetch(`${t.url}/api/v1/sites/shared-links`, {
      method: 'PUT',
      headers: { ...bearer(account.key), 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: account.domain, name: 'Public' }),
    });
    sharedUrl = (await response.json()).url.replace(/^http:\/\/localhost:\d+/, t.url);
    // A goal the site has already: saving a journey through /pricing uses it rather than making another.
    const goal = await fetch(`${t.url}/api/v1/sites/goals`, {
      method: 'PUT',
      headers: { ...bearer(account.key), 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: account.domain, goal_type: 'page', page_path: '/pricing', display_name: 'Pricing page' }),
    });
    expect(goal.status).toBe(200);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A browser signed in (as the owner unless said), its clock at NOW: a desktop, or a 390 px phone. */
  async function open(
    path: string,
    options: { dark?: boolean; phone?: boolean; userId?: number | null; bypassCSP?: boolean } = {},
  ): Promise<{ page: Page; context: BrowserContext }> {
    const context = await browser.newContext({
      viewport: options.phone ? { width: 390, height: 844 } : { width: 1280, height: 1000 },
      colorScheme: options.dark ? 'dark' : 'light',
      bypassCSP: options.bypassCSP ?? false,
    });
    if (options.userId !== null) {
      const { token } = await signedInHeaders(t.app, options.userId ?? account.userId);
      await context.addCookies([{ name: 'svc_session', value: token, url: t.url }]);
    }
    const page = await context.newPage();
    await page.clock.install({ time: NOW });
    await page.goto(path.startsWith('http') ? path : `${t.url}${path}`);
    return { page, context };
  }
  const settled = (page: Page) => page.locator('section.explore[aria-busy="false"]').waitFor({ timeout: 30_000 });
  const columns = (page: Page) => page.locator('.journey-columns > .journey-column');
  const chosen = (page: Page) => page.locator('.journey-candidate[aria-pressed="true"] .journey-label').allTextContents();
  const candidates = (page: Page, column: number) => columns(page).nth(column).locator('.journey-label').allTextContents();
  const funnelCounts = (page: Page) => page.locator('.explore-funnel .funnel-count').allTextContents();
  const candidate = (page: Page, column: number, label: string) =>
    columns(page)
      .nth(column)
      .locator('.journey-candidate', { has: page.locator('.journey-label', { hasText: new RegExp(`^${label}$`) }) });

  it('opens on the suggested journey from the dashboard’s bar, keeping its view, in seven requests', async () => {
    const { page, context } = await open(`/${account.domain}?period=7d&metric=pageviews`);
    const asked: string[] = [];
    page.on('request', (request) => request.url().endsWith('/journeys') && asked.push(request.postData() ?? ''));
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Explore' }).click();
    await page.waitForURL(`${t.url}/${account.domain}/explore?period=7d&metric=pageviews`);
    await settled(page);
    expect(await chosen(page)).toEqual(FORWARD);
    expect(await columns(page).locator('h3').allTextContents()).toEqual([
      'First step',
      '1 step after',
      '2 steps after',
      '3 steps after',
      '4 steps after',
      '5 steps after',
      '6 steps after',
    ]);
    expect(await candidates(page, 6)).toEqual(['/billing']);
    expect((await candidates(page, 0)).slice(0, 3)).toEqual(['/', '/pricing', '/blog/a']);
    expect(await funnelCounts(page)).toEqual(['11 visitors', '6 visitors', '5 visitors', '5 visitors', '1 visitor', '1 visitor']);
    expect(asked).toHaveLength(7);
    expect(JSON.parse(asked[0]!)).toMatchObject({ date_range: '7d', filters: [], steps: [], direction: 'forward' });
    // The comparison menu is the dashboard's: Explore has only the range.
    expect(await page.getByLabel('Compare').count()).toBe(0);
    expect(await page.getByLabel('Date range').inputValue()).toBe('7d');

    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL(`${t.url}/${account.domain}?period=7d&metric=pageviews`);
    await page.locator('.top-stats').waitFor();
    await context.close();
  });

  it('replaces a column’s step and asks for the next column; a search narrows a column', async () => {
    const { page, context } = await open(`/${account.domain}/explore`);
    await settled(page);
    // A click in the last column extends the journey.
    await candidate(page, 6, '/billing').click();
    await settled(page);
    expect(await chosen(page)).toEqual([...FORWARD, '/billing']);
    expect(await candidates(page, 7)).toEqual(['/invoices']);
    expect(await funnelCounts(page)).toHaveLength(7);
    // A click in the second column replaces its step and drops the columns after it; with the keyboard too.
    await candidate(page, 1, '/blog/a').focus();
    await page.keyboard.press('Enter');
    await settled(page);
    expect(await chosen(page)).toEqual(['/', '/blog/a']);
    expect(await columns(page).count()).toBe(3);
    expect(await candidates(page, 2)).toEqual(['/pricing']);
    expect(await funnelCounts(page)).toEqual(['11 visitors', '3 visitors']);
    // The focus ring shows on a candidate reached by the keyboard.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    expect(await candidate(page, 1, '/blog/a').evaluate((node) => getComputedStyle(node).outlineStyle)).toBe('solid');

    const search = page.getByRole('searchbox', { name: 'Search first step' });
    await search.fill('bl');
    await columns(page).nth(0).getByText('Type at least 3 characters to search.').waitFor();
    expect(await candidates(page, 0)).toHaveLength(10);
    await search.fill('BLOG');
    await expect.poll(() => candidates(page, 0), { timeout: 15_000 }).toEqual(['/blog/a', '/blog/b']);
    // The search lists matches only (the chosen / is not one); the journey and its other columns stay.
    expect(await chosen(page)).toEqual(['/blog/a']);
    expect(await columns(page).count()).toBe(3);
    expect(await funnelCounts(page)).toEqual(['11 visitors', '3 visitors']);
    await search.fill('zzz');
    await columns(page).nth(0).getByText('No step here contains “zzz”.').waitFor({ timeout: 15_000 });
    await page.screenshot({ path: screenshotPath('explore-search-nothing') });
    await search.press('Escape');
    await expect.poll(() => candidates(page, 0)).toHaveLength(10);
    await context.close();
  });

  it('reads backward, and saves the journey as a funnel in time order that the dashboard then shows', async () => {
    const { page, context } = await open(`/${account.domain}/explore`);
    await settled(page);
    await page.getByText('Ending at').click();
    await expect.poll(() => chosen(page), { timeout: 30_000 }).toEqual(BACKWARD);
    await settled(page);
    expect(await columns(page).locator('h3').allTextContents()).toEqual(['Last step', '1 step before', '2 steps before', '3 steps before', '4 steps before']);
    expect(await candidates(page, 4)).toEqual(['/']);
    expect(await funnelCounts(page)).toEqual(['11 visitors', '4 visitors', '4 visitors', '4 visitors']);

    await page.getByRole('button', { name: 'Save as funnel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save as funnel' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Name').inputValue()).toBe('/pricing → /signup → /welcome → /');
    expect(await dialog.getByRole('list', { name: 'The funnel’s steps' }).getByRole('listitem').allTextContents()).toEqual([
      '/pricing — the goal “Pricing page”',
      '/signup — a new goal “Visit /signup”',
      '/welcome — a new goal “Visit /welcome”',
      '/ — a new goal “Visit /”',
    ]);
    await dialog.getByText('with other steps allowed in between, so its numbers can be higher').waitFor();
    await page.screenshot({ path: screenshotPath('explore-save-funnel') });
    await dialog.getByRole('button', { name: 'Save funnel' }).click();
    await dialog.getByText('Saved the funnel “/pricing → /signup → /welcome → /”.').waitFor({ timeout: 15_000 });
    const listed = await fetch(`${t.url}/api/v1/sites/funnels?site_id=${account.domain}`, { headers: bearer(account.key) });
    expect((await listed.json()).funnels).toMatchObject([
      {
        name: '/pricing → /signup → /welcome → /',
        steps: [{ display_name: 'Pricing page' }, { display_name: 'Visit /signup' }, { display_name: 'Visit /welcome' }, { display_name: 'Visit /' }],
      },
    ]);

    // The dashboard's funnels report opens on it: in order, other steps allowed between, so more visitors than the journey's.
    await dialog.getByRole('link', { name: 'See it in the dashboard’s funnels' }).click();
    await page.waitForURL(`${t.url}/${account.domain}`);
    const card = page.getByRole('region', { name: 'Behaviours' });
    await expect.poll(() => card.getByRole('tab', { selected: true }).textContent(), { timeout: 20_000 }).toBe('Funnels');
    expect(await card.getByLabel('Funnel').inputValue()).toBe('/pricing → /signup → /welcome → /');
    await expect
      .poll(() => card.locator('.funnel-count').allTextContents(), { timeout: 20_000 })
      .toEqual(['10 visitors', '5 visitors', '5 visitors', '4 visitors']);
    await context.close();
  });

  it('says what a funnel cannot keep of a journey, and counts the event on any page only when asked', async () => {
    const us = encodeURIComponent(JSON.stringify([['is', 'visit:country', ['US']]]));
    const { page, context } = await open(`/${account.domain}/explore?filters=${us}`);
    await settled(page);
    expect(await chosen(page)).toEqual(['/pricing', 'Signup on /pricing']);
    await page.getByRole('button', { name: 'Save as funnel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save as funnel' });
    await dialog
      .getByText('A goal counts an event on any page, so a funnel cannot keep “Signup on /pricing” to one page. Count it on any page, or choose other steps.')
      .waitFor();
    expect(await dialog.getByRole('button', { name: 'Save funnel' }).count()).toBe(0);
    await page.screenshot({ path: screenshotPath('explore-save-refused') });
    await dialog.getByLabel('Count “Signup” on any page, not only on /pricing').check();
    await dialog.getByRole('button', { name: 'Save funnel' }).waitFor();
    expect(await dialog.getByRole('listitem').allTextContents()).toEqual(['/pricing — the goal “Pricing page”', 'Signup on /pricing — a new goal “Signup”']);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await context.close();
  });

  it('keeps its layout while columns load, and says when the range has nobody', async () => {
    const { page, context } = await open(`/${account.domain}`);
    // Each answer waits for the test's word, so the placeholders can be measured.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/journeys', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('link', { name: 'Explore' }).click();
    const placeholder = page.locator('.journey-column[aria-busy="true"]');
    await placeholder.waitFor({ timeout: 20_000 });
    const before = (await placeholder.boundingBox())!;
    release();
    await settled(page);
    const after = (await columns(page).first().boundingBox())!;
    expect(after.height).toBeCloseTo(before.height, 0);
    expect(after.width).toBeCloseTo(before.width, 0);
    await page.unroute('**/journeys');

    await page.getByLabel('Date range').selectOption('day');
    await page.getByText('No visitors in this period: choose a longer range.').waitFor({ timeout: 20_000 });
    expect(await page.getByRole('button', { name: 'Save as funnel' }).count()).toBe(0);
    await context.close();
  });

  it('is read-only for viewers and on a shared link, which may frame it', async () => {
    const viewer = await open(`/${account.domain}/explore`, { userId: viewerId });
    await settled(viewer.page);
    expect(await chosen(viewer.page)).toEqual(FORWARD);
    await viewer.page.locator('.explore-funnel .funnel-step').first().waitFor();
    expect(await viewer.page.getByRole('button', { name: 'Save as funnel' }).count()).toBe(0);
    await viewer.context.close();

    const explore = sharedUrl.replace('?', '/explore?');
    expect((await fetch(explore)).headers.get('content-security-policy')).toContain('frame-ancestors *');
    const shared = await open(explore, { userId: null });
    await settled(shared.page);
    expect(await chosen(shared.page)).toEqual(FORWARD);
    await shared.page.locator('.explore-funnel .funnel-step').first().waitFor();
    expect(await shared.page.getByRole('button', { name: 'Save as funnel' }).count()).toBe(0);
    expect(await shared.page.getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe(new URL(sharedUrl).pathname + new URL(sharedUrl).search);
    await shared.page.getByRole('link', { name: 'Dashboard' }).click();
    await shared.page.locator('.top-stats').waitFor();
    await shared.context.close();
  });

  it('looks right and passes axe in light, dark and on a phone', async () => {
    for (const options of [{}, { dark: true }, { phone: true }, { phone: true, dark: true }]) {
      const name = `explore${'dark' in options ? '-dark' : '-light'}${'phone' in options ? '-phone' : ''}`;
      const { page, context } = await open(`/${account.domain}/explore`, { ...options, bypassCSP: true });
      await settled(page);
      await page.locator('.explore-funnel .funnel-step').first().waitFor();
      await page.screenshot({ path: screenshotPath(name), fullPage: true });
      const width = 'phone' in options ? 390 : 1280;
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      // Seven columns do not fit: they scroll sideways, the cut edge marked.
      const strip = page.locator('.journey-columns');
      expect(await strip.evaluate((node) => node.scrollWidth > node.clientWidth)).toBe(true);
      expect(await strip.getAttribute('data-more-after')).not.toBeNull();
      expect(await seriousViolations(page)).toEqual([]);
      // The dashboard's bar, with its link to Explore.
      await page.getByRole('link', { name: 'Dashboard' }).click();
      await page.locator('.top-stats').waitFor();
      await page.screenshot({ path: screenshotPath(name.replace('explore', 'explore-link')), clip: { x: 0, y: 0, width, height: 260 } });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await context.close();
    }
  });
});
