import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSite } from '../../src/management/sites.js';
import { launchBrowser, screenshotPath } from '../support/browser.js';
import { insertEvents } from '../support/eventFixtures.js';
import { ManualClock } from '../support/manualClock.js';
import { type Account, bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { signedInContext } from '../support/webSession.js';

// Switching sites from the dashboard's title and keys 1–9, and the sites list's figures, search
// and list view (docs/dashboard.md "Switching sites"). One team with three sites, created in
// this order: the account's own, blog.example.org, shop.example.com. The clock stands at Wed
// 10 Jan 2024 12:00 UTC: the blog had 3 visitors in the last 24 hours and 2 in the 24 before
// (up 50 %); the shop 1 now and 4 before (down 75 %).
describe('site switching and the sites list', () => {
  let t: TestApp;
  let account: Account;
  let browser: Browser;
  const now = '2024-01-10T12:00:00Z';
  const blog = 'blog.example.org';
  const shop = 'shop.example.com';

  beforeAll(async () => {
    const clock = new ManualClock(Date.parse(now));
    t = await startTestApp({ clock });
    account = await createAccount(t.app, { domain: 'aaa.example.net' });
    const blogSite = await registerSite(t.app.meta.db, { teamId: account.teamId, domain: blog, timezone: 'Etc/UTC' }, clock.now());
    const shopSite = await registerSite(t.app.meta.db, { teamId: account.teamId, domain: shop, timezone: 'Etc/UTC' }, clock.now());
    await insertEvents(t.app, blogSite.id, [
      ...['a', 'b', 'c'].map((visitor) => ({ visitor, at: '2024-01-10 09:00:00', page: '/' })),
      ...['d', 'e'].map((visitor) => ({ visitor, at: '2024-01-09 08:00:00', page: '/' })),
    ]);
    await insertEvents(t.app, shopSite.id, [
      { visitor: 'f', at: '2024-01-10 11:00:00', page: '/' },
      ...['g', 'h', 'i', 'j'].map((visitor) => ({ visitor, at: '2024-01-08 20:00:00', page: '/' })),
    ]);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function open(path: string, options: { dark?: boolean; phone?: boolean } = {}): Promise<Page> {
    const context = await signedInContext(browser, t, account.userId, options);
    const page = await context.newPage();
    await page.clock.install({ time: now });
    await page.goto(`${t.url}${path}`);
    return page;
  }
  const dashboardOf = async (page: Page, domain: string) => {
    await page.waitForURL(`${t.url}/${domain}`);
    await page.getByRole('heading', { level: 1, name: domain }).waitFor();
  };

  it('opens a searchable list of the team’s sites from the title, by click and by keys', async () => {
    const page = await open(`/${account.domain}`);
    const title = page.getByRole('button', { name: `${account.domain} — switch site` });
    await title.click();
    const options = page.getByRole('listbox', { name: 'Sites' }).getByRole('option');
    expect(await options.allInnerTexts()).toEqual([`${account.domain}\nthis site\n1`, `${blog}\n2`, `${shop}\n3`]);
    await page.screenshot({ path: screenshotPath('site-switcher') });

    // The search narrows the list; Escape closes it and gives the focus back to the title.
    const search = page.getByRole('combobox', { name: 'Search sites' });
    expect(await search.evaluate((element) => element === document.activeElement)).toBe(true);
    await search.fill('SHOP');
    expect(await options.allInnerTexts()).toEqual([`${shop}\n3`]);
    await search.fill('nothing');
    await page.getByText("No site's domain holds “nothing”.").waitFor();
    await page.keyboard.press('Escape');
    expect(await options.count()).toBe(0);
    expect(await title.evaluate((element) => element === document.activeElement)).toBe(true);

    // Arrows move through the list and Enter opens the site.
    await title.click();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await page.locator('[role="option"][aria-selected="true"]').textContent()).toContain(shop);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await dashboardOf(page, blog);

    // A click on a site opens it.
    await page.getByRole('button', { name: `${blog} — switch site` }).click();
    await page.getByRole('option', { name: new RegExp(shop) }).click();
    await dashboardOf(page, shop);

    // Keys 1–9: the site at that place; a key past the last site, or one typed in a field, does nothing.
    await page.keyboard.press('2');
    await dashboardOf(page, blog);
    await page.keyboard.press('1');
    await dashboardOf(page, account.domain);
    await page.keyboard.press('9');
    await page
      .getByRole('button', { name: /Filter/ })
      .first()
      .waitFor();
    expect(new URL(page.url()).pathname).toBe(`/${account.domain}`);
    await page.getByRole('button', { name: `${account.domain} — switch site` }).click();
    await page.getByRole('combobox', { name: 'Search sites' }).press('3');
    expect(new URL(page.url()).pathname).toBe(`/${account.domain}`);
    expect(await page.getByRole('combobox', { name: 'Search sites' }).inputValue()).toBe('3');
    await page.keyboard.press('Escape');

    // The ? overlay lists the keys; while it is open they do nothing.
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.getByText('Go to the site at that place in the site list').waitFor();
    await page.keyboard.press('3');
    expect(new URL(page.url()).pathname).toBe(`/${account.domain}`);
    await page.context().close();
  });

  it('shows one site alone, without a switcher, on a shared link', async () => {
    const response = await fetch(`${t.url}/api/v1/sites/shared-links`, {
      method: 'PUT',
      headers: { ...bearer(account.key), 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: blog, name: 'Public' }),
    });
    const link = (await response.json()).url.replace(/^http:\/\/localhost:\d+/, t.url);
    const page = await open('/');
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: blog }).waitFor();
    expect(await page.getByRole('button', { name: /switch site/ }).count()).toBe(0);
    await page.keyboard.press('1');
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    expect(await help.getByText('Go to the site at that place in the site list').count()).toBe(0);
    expect(new URL(page.url()).pathname).toContain('/share/');
    await page.context().close();
  });

  it('lists the sites with their visitors and change in 24 hours, a search and a list view', async () => {
    const page = await open('/');
    const figures = (domain: string) => page.locator(`[data-site="${domain}"] .site-visitors`);
    await figures(blog)
      .filter({ hasText: /^3\s*visitors in 24 h/ })
      .waitFor();
    expect(await figures(blog).textContent()).toMatch(/↑ 50%/);
    await figures(shop)
      .filter({ hasText: /^1\s*visitor in 24 h/ })
      .waitFor();
    expect(await figures(shop).textContent()).toMatch(/↓ 75%/);
    expect(await page.locator(`[data-site="${shop}"] .site-change.bad`).count()).toBe(1);
    // No visitors in the 24 hours before: no change to show.
    await figures(account.domain)
      .filter({ hasText: /^0\s*visitors/ })
      .waitFor();
    expect(await page.locator(`[data-site="${account.domain}"] .site-change`).count()).toBe(0);
    await page.screenshot({ path: screenshotPath('sites-cards'), fullPage: true });

    await page.getByRole('searchbox', { name: 'Search sites' }).fill('example.');
    expect(await page.locator('[data-site]').count()).toBe(3);
    await page.getByRole('searchbox', { name: 'Search sites' }).fill('BLOG');
    expect(await page.locator('[data-site]').evaluateAll((links) => links.map((link) => link.getAttribute('data-site')))).toEqual([blog]);
    await page.getByRole('searchbox', { name: 'Search sites' }).fill('');

    // The list view, remembered on the next visit.
    await page.getByRole('button', { name: 'List' }).click();
    expect(await page.getByRole('button', { name: 'List' }).getAttribute('aria-pressed')).toBe('true');
    await page.locator('.sites-list .site-row').first().waitFor();
    await page.reload();
    await page.locator(`.sites-list [data-site="${blog}"] .site-visitors`).filter({ hasText: /↑ 50%/ }).waitFor();
    expect(await page.locator('.sites-grid').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('sites-list'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: screenshotPath('sites-list-dark'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: screenshotPath('sites-list-phone'), fullPage: true });
    await page.getByRole('button', { name: 'Cards' }).click();
    await page.locator('.sites-grid').waitFor();
    await page.screenshot({ path: screenshotPath('sites-cards-phone'), fullPage: true });
    await page.context().close();
  });

  it('draws the switcher in the dark and on a phone', async () => {
    for (const options of [{ dark: true }, { phone: true }]) {
      const page = await open(`/${blog}`, options);
      await page.getByRole('button', { name: `${blog} — switch site` }).click();
      await page.getByRole('option', { name: new RegExp(shop) }).waitFor();
      await page.screenshot({ path: screenshotPath(`site-switcher-${options.dark ? 'dark' : 'phone'}`) });
      await page.context().close();
    }
  });
});
