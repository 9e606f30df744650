import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmallSite } from '../query/smallSite.js';
import { launchBrowser } from '../support/browser.js';
import type { Account, TestApp } from '../support/testApp.js';
import { signedInContext } from '../support/webSession.js';

// A view seen moments ago comes back from its answers (web/src/pages/dashboard/view/recentAnswers.ts):
// on the small site (test/query/smallSite.ts), 4 visitors over both days, 2 of them on /pricing.
describe('the dashboard, back to a view just seen', () => {
  let t: TestApp;
  let account: Account;
  let browser: Browser;
  const range = '?period=custom&from=2024-01-08&to=2024-01-09';

  beforeAll(async () => {
    ({ t, account } = await startSmallSite());
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const visitors = (page: Page) => page.locator('[data-metric="visitors"] .stat-value').textContent();
  const pagesPanel = (page: Page) => page.getByRole('region', { name: 'Pages' });
  /** The panels are filled: none is waiting for its answer. */
  const settled = (page: Page) => expect.poll(() => page.locator('[aria-busy="true"]').count(), { timeout: 15_000 }).toBe(0);

  it('shows the unfiltered view again without asking when a chip goes, and asks again once its answers are 30 seconds old', async () => {
    const context = await signedInContext(browser, t, account.userId);
    const page = await context.newPage();
    await page.clock.install();
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/query')) asked.push(request.postData() ?? '');
    });
    await page.goto(`${t.url}/${account.domain}${range}`);
    await expect.poll(() => visitors(page), { timeout: 15_000 }).toBe('4');
    await settled(page);
    await pagesPanel(page).locator('.panel-row[data-value="/pricing"] .row-label').click();
    await expect.poll(() => visitors(page), { timeout: 15_000 }).toBe('2');
    await settled(page);

    asked.length = 0;
    await page.getByRole('button', { name: 'Remove filter: Page is /pricing' }).click();
    await expect.poll(() => visitors(page), { timeout: 15_000 }).toBe('4');
    await settled(page);
    expect(await pagesPanel(page).locator('.panel-row[data-value="/pricing"] .num').first().textContent()).toBe('2');
    expect(asked).toEqual([]);

    await page.clock.fastForward(30_000);
    await pagesPanel(page).locator('.panel-row[data-value="/pricing"] .row-label').click();
    await expect.poll(() => visitors(page), { timeout: 15_000 }).toBe('2');
    await settled(page);
    // The current visitors' own refresh may be among them; the filtered panels ask too.
    expect(asked.filter((body) => body.includes('/pricing')).length).toBeGreaterThan(0);
    await context.close();
  });
});
