import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmallSite } from '../query/smallSite.js';
import { launchBrowser, screenshotPath } from '../support/browser.js';
import { insertEvents } from '../support/eventFixtures.js';
import type { Account, TestApp } from '../support/testApp.js';
import { signedInContext } from '../support/webSession.js';

// The dashboard's details views in Chromium, on the small site
// (test/query/smallSite.ts: 8–9 Jan 2024) plus 120 one-visit pages under /many/ on 9 Jan.
describe('dashboard details views', () => {
  let t: TestApp;
  let account: Account;
  let browser: Browser;
  const range = '?period=custom&from=2024-01-08&to=2024-01-09';

  beforeAll(async () => {
    ({ t, account } = await startSmallSite());
    await insertEvents(
      t.app,
      account.siteId,
      Array.from({ length: 120 }, (_, i) => ({ visitor: `many-${i}`, at: `2024-01-09 20:${String(i % 60).padStart(2, '0')}:00`, page: `/many/${i}` })),
    );
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function dashboard(colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
    const context = await signedInContext(browser, t, account.userId, { dark: colorScheme === 'dark' });
    const page = await context.newPage();
    await page.goto(`${t.url}/${account.domain}${range}`);
    await page.getByRole('region', { name: 'Pages' }).locator('.panel-row').first().waitFor();
    return page;
  }
  const rowsOf = (page: Page) => page.getByRole('dialog').locator('tbody tr');

  it('lists a whole breakdown with every metric, sorted by any column, searched, and a page at a time', async () => {
    const page = await dashboard();
    await page.getByRole('region', { name: 'Pages' }).getByRole('button', { name: 'Details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pages: Top pages' });
    await dialog.waitFor();
    expect(await dialog.locator('thead th').allTextContents()).toEqual(['Top pages', 'Visitors ↓', 'Pageviews', 'Bounce', 'Time on page', 'Scroll']);
    await expect.poll(() => rowsOf(page).count(), { timeout: 15_000 }).toBe(100);
    await dialog.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rowsOf(page).count(), { timeout: 15_000 }).toBe(123);
    expect(await dialog.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    // The most visited page first; then by pageviews, fewest first.
    expect(await rowsOf(page).first().getAttribute('data-value')).toBe('/');
    await dialog.getByRole('button', { name: /^Pageviews/ }).click();
    await dialog.getByRole('button', { name: /^Pageviews/ }).click();
    await expect.poll(() => dialog.locator('th[aria-sort="ascending"]').textContent()).toBe('Pageviews ↑');
    await page.screenshot({ path: screenshotPath('dashboard-details') });
    await dialog.getByRole('searchbox').fill('pric');
    await expect.poll(() => rowsOf(page).count(), { timeout: 15_000 }).toBe(1);
    expect(await rowsOf(page).locator('td').allTextContents()).toEqual([
      '/pricing',
      '2',
      '2',
      expect.stringMatching(/%$/),
      expect.any(String),
      expect.any(String),
    ]);
    // Escape closes the dialog (once focus has left the search box, where it clears the text).
    await dialog.locator('h2').click();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await page.context().close();
  });

  it('answers every panel tab’s details without an error, and a chosen row filters the dashboard', async () => {
    const page = await dashboard('dark');
    for (const panel of ['Sources', 'Pages', 'Locations', 'Devices', 'Behaviours']) {
      const region = page.getByRole('region', { name: panel });
      for (const tab of await region.getByRole('tab').all()) {
        await tab.click();
        await expect.poll(() => region.locator('.panel-skeleton').count(), { timeout: 15_000, message: `${panel} › ${await tab.textContent()}` }).toBe(0);
        const details = region.getByRole('button', { name: 'Details' });
        if ((await details.count()) === 0) continue;
        await details.click();
        const dialog = page.getByRole('dialog');
        await dialog.locator('tbody tr').first().waitFor({ timeout: 15_000 });
        expect(await dialog.locator('.form-error').count(), `${panel} › ${await tab.textContent()}`).toBe(0);
        await dialog.getByRole('button', { name: 'Close' }).click();
        await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
      }
    }
    const pages = page.getByRole('region', { name: 'Pages' });
    await pages.getByRole('tab', { name: 'Top pages' }).click();
    await pages.getByRole('button', { name: 'Details' }).click();
    await page.getByRole('dialog').locator('tr[data-value="/blog"] .row-label').click();
    await page.getByText('Page is /blog').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('dashboard-details-chosen-dark') });
    await page.context().close();
  });
});
