import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importPlausibleExport } from '../query/plausibleExport.js';
import { startSmallSite } from '../query/smallSite.js';
import { launchBrowser, screenshotPath } from '../support/browser.js';
import type { Account, TestApp } from '../support/testApp.js';
import { signedInContext } from '../support/webSession.js';

// A site with imported history on the dashboard: the small site's own events (8–9 January 2024,
// test/query/smallSite.ts) and the hand-written Plausible export imported for 1–2 January, whose
// figures and merged totals test/query/importedMerge.test.ts counts by hand: 4 + 17 visitors,
// 5 + 20 visits, 8 + 34 pageviews, 52 % bounces, 91 s per visit, 1.68 pages per visit.
describe('the dashboard with imported data', () => {
  let t: TestApp;
  let account: Account;
  let browser: Browser;

  beforeAll(async () => {
    ({ t, account } = await startSmallSite());
    expect(await importPlausibleExport(t, account)).toMatchObject({ status: 'completed' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const stat = (page: Page, metric: string) => page.locator(`[data-metric="${metric}"] .stat-value`).textContent();
  const firstFigure = async (page: Page, panel: string, tab: string, value: string) => {
    const region = page.getByRole('region', { name: panel });
    await region.getByRole('tab', { name: tab }).click();
    const figure = region.locator(`.panel-row[data-value="${value}"] .num`).first();
    await figure.waitFor({ timeout: 15_000 });
    return figure.textContent();
  };

  it('adds the imported days to top stats, graph and panels, and a switch leaves them out', async () => {
    const context = await signedInContext(browser, t, account.userId);
    const page = await context.newPage();
    await page.goto(`${t.url}/${account.domain}?period=custom&from=2024-01-01&to=2024-01-09`);
    await expect.poll(() => stat(page, 'visitors'), { timeout: 15_000 }).toBe('21');
    expect(await stat(page, 'visits')).toBe('25');
    expect(await stat(page, 'pageviews')).toBe('42');
    expect(await stat(page, 'bounce_rate')).toBe('52%');
    expect(await stat(page, 'visit_duration')).toBe('1m 31s');
    expect(await stat(page, 'views_per_visit')).toBe('1.68');

    // The graph, day by day: 10 imported visitors on 1 January, 7 on the 2nd.
    await expect.poll(() => page.locator('.graph-plot').getAttribute('data-points'), { timeout: 15_000 }).toBe('9');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const lines = (await readFile((await download.path()) as string, 'utf8')).trim().split('\n');
    expect(lines.slice(0, 3)).toEqual(['bucket,visitors', '2024-01-01,10', '2024-01-02,7']);

    expect(await firstFigure(page, 'Sources', 'Sources', 'Google')).toBe('10');
    expect(await firstFigure(page, 'Sources', 'Sources', 'Hacker News')).toBe('7');
    expect(await firstFigure(page, 'Pages', 'Top pages', '/')).toBe('17');
    expect(await firstFigure(page, 'Pages', 'Entry pages', '/pricing')).toBe('5');
    expect(await firstFigure(page, 'Locations', 'Countries', 'DE')).toBe('8');
    expect(await page.getByRole('region', { name: 'Behaviours' }).locator('.panel-row[data-value="Signup"] .num').first().textContent()).toBe('6');
    await page.screenshot({ path: screenshotPath('dashboard-imported'), fullPage: true });

    // Without the imported days: the site's own figures; back brings them again.
    await page.getByLabel('Imported data').uncheck();
    await page.waitForURL(/imported=false/);
    await expect.poll(() => stat(page, 'visitors'), { timeout: 15_000 }).toBe('4');
    await expect.poll(() => firstFigure(page, 'Pages', 'Top pages', '/'), { timeout: 15_000 }).toBe('3');
    await page.goBack();
    await expect.poll(() => stat(page, 'visitors'), { timeout: 15_000 }).toBe('21');
    await context.close();
  });
});
