import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmallSite } from '../query/smallSite.js';
import { launchBrowser, screenshotPath } from '../support/browser.js';
import { type Account, bearer, type TestApp } from '../support/testApp.js';
import { signedInContext } from '../support/webSession.js';

// The filter dialog's value search, conversions under a goal filter and saved segments, in
// Chromium on the small site (test/query/smallSite.ts): alice and carol come from Germany, alice
// (from Google) signs up; dave too comes from Google.
describe('dashboard filters by name, conversions and segments', () => {
  let t: TestApp;
  let account: Account;
  let browser: Browser;
  const range = '?period=custom&from=2024-01-08&to=2024-01-09';
  const germany = ['is', 'visit:country', ['DE']];

  beforeAll(async () => {
    ({ t, account } = await startSmallSite());
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function open(url: string, options: { dark?: boolean; phone?: boolean } = {}): Promise<Page> {
    const context = await signedInContext(browser, t, account.userId, options);
    const page = await context.newPage();
    await page.goto(url);
    await visitorsShown(page);
    return page;
  }
  const visitorsShown = (page: Page) => page.locator('[data-metric="visitors"] .stat-value').filter({ hasText: /\d/ }).waitFor({ timeout: 15_000 });
  const visitors = (page: Page) => page.locator('[data-metric="visitors"] .stat-value').textContent();
  const filtersInUrl = (page: Page) => JSON.parse(new URL(page.url()).searchParams.get('filters') ?? '[]');
  async function apiQuery(filters: unknown[]): Promise<{ status: number; body: any }> {
    const response = await fetch(`${t.url}/api/v2/query`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: account.domain, metrics: ['visitors'], date_range: ['2024-01-08', '2024-01-09'], filters }),
    });
    return { status: response.status, body: await response.json() };
  }
  const apiVisitors = async (filters: unknown[]) => String((await apiQuery(filters)).body.results[0].metrics[0]);
  /** No panel shows an error, once every panel has answered. */
  async function expectNoPanelError(page: Page) {
    // The map is drawn once its panel comes near the screen (panels/WhenVisible.tsx): bring it there.
    await page.getByRole('region', { name: 'Locations' }).scrollIntoViewIfNeeded();
    await expect.poll(() => page.locator('.panel-skeleton').count(), { timeout: 15_000 }).toBe(0);
    expect(await page.locator('.form-error').allTextContents()).toEqual([]);
  }

  it('filters by a country typed by its name, suggesting countries by name with their visitors', async () => {
    const page = await open(`${t.url}/${account.domain}${range}`);
    await page.getByRole('button', { name: '+ Filter' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a filter' });
    await dialog.getByLabel('Filter by').selectOption('visit:country');
    // The suggestions read as names with their visitors, most first.
    const suggestions = dialog.getByRole('group', { name: 'Suggestions' });
    await expect.poll(() => suggestions.getByRole('button').count(), { timeout: 15_000 }).toBe(3);
    const offered = await suggestions.getByRole('button').allTextContents();
    expect(offered[0]).toBe('Germany2');
    expect(offered.slice(1).sort()).toEqual(['France1', expect.stringMatching(/United.States1$/)]);
    // Each beside its flag, drawn from its SVG.
    await expect
      .poll(() => suggestions.locator('img.flag').evaluateAll((flags) => flags.map((flag) => (flag as HTMLImageElement).naturalWidth > 0)))
      .toEqual([true, true, true]);
    await dialog.getByLabel('Value').fill('germ');
    await expect.poll(() => suggestions.getByRole('button').allTextContents()).toEqual(['Germany2']);
    await page.screenshot({ path: screenshotPath('dashboard-filter-search') });

    // A name that is no country is said so under the box, and nothing is added.
    await dialog.getByLabel('Value').fill('Germny');
    await dialog.getByRole('button', { name: 'Add filter' }).click();
    await dialog.getByText('“Germny” is not a country; type its name or choose one from the list.').waitFor();
    expect(filtersInUrl(page)).toEqual([]);

    await dialog.getByLabel('Value').fill('Germany');
    await dialog.getByRole('button', { name: 'Add filter' }).click();
    await page.getByRole('button', { name: /^Remove filter: Country is .*Germany$/ }).waitFor();
    expect(filtersInUrl(page)).toEqual([germany]);
    const expected = await apiVisitors([germany]);
    expect(expected).toBe('2');
    await expect.poll(() => visitors(page), { timeout: 15_000 }).toBe(expected);
    await expectNoPanelError(page);
    // The map names the country under the pointer, with its visitors.
    const locations = page.getByRole('region', { name: 'Locations' });
    await locations.getByRole('tab', { name: 'Map' }).click();
    await locations.locator('path[data-country="DE"]').hover();
    await expect.poll(() => locations.locator('.map-tooltip').textContent()).toBe('Germany: 2 visitors');
    await page.screenshot({ path: screenshotPath('dashboard-map-tooltip') });
    await page.context().close();

    // A view written by hand with the name shows the same numbers, not an error.
    const byName = await open(`${t.url}/${account.domain}${range}&filters=${encodeURIComponent(JSON.stringify([['is', 'visit:country', ['Germany']]]))}`);
    await expect.poll(() => visitors(byName), { timeout: 15_000 }).toBe(expected);
    await expectNoPanelError(byName);
    await byName.context().close();
  });

  it('shows conversions and conversion rate in every panel once a goal is filtered', async () => {
    const page = await open(`${t.url}/${account.domain}${range}`);
    await page.getByRole('button', { name: '+ Filter' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a filter' });
    await dialog.getByLabel('Filter by').selectOption('event:goal');
    await dialog
      .getByRole('group', { name: 'Suggestions' })
      .getByRole('button', { name: /Signup/ })
      .click();
    await dialog.getByRole('button', { name: 'Add filter' }).click();
    await page.getByRole('button', { name: 'Remove filter: Goal is Signup' }).waitFor();

    const sources = page.getByRole('region', { name: 'Sources' });
    await sources.getByRole('tab', { name: 'Sources' }).click();
    const google = sources.locator('.panel-row[data-value="Google"] .num');
    await google.first().waitFor({ timeout: 15_000 });
    expect(await sources.locator('.panel-columns .num').allTextContents()).toEqual(['Conversions', 'CR']);
    // alice converted of Google's two visitors (alice, dave).
    await expect.poll(() => google.allTextContents(), { timeout: 15_000 }).toEqual(['1', '50%']);
    for (const panel of ['Pages', 'Locations', 'Devices']) {
      const region = page.getByRole('region', { name: panel });
      await expect.poll(() => region.locator('.panel-columns .num').allTextContents(), { timeout: 15_000 }).toEqual(['Conversions', 'CR']);
    }
    await expectNoPanelError(page);
    await page.screenshot({ path: screenshotPath('dashboard-goal-conversions'), fullPage: true });
    // The details view counts them too.
    await sources.getByRole('button', { name: 'Details' }).click();
    const details = page.getByRole('dialog');
    await details.locator('tbody tr').first().waitFor({ timeout: 15_000 });
    // (The column it is sorted by carries an arrow.)
    expect((await details.locator('thead th').allTextContents()).map((heading) => heading.replace(/ [↓↑]$/, ''))).toEqual([
      'Sources',
      'Conversions',
      'Events',
      'CR',
    ]);
    await page.context().close();
  });

  it('saves the filters as a segment, applies it after a reload, and the query API takes it', async () => {
    const url = `${t.url}/${account.domain}${range}&filters=${encodeURIComponent(JSON.stringify([germany]))}`;
    const page = await open(url);
    await page.getByRole('button', { name: 'Segments' }).click();
    const dialog = page.getByRole('dialog', { name: 'Segments' });
    await dialog.getByText(/Country is .*Germany/).waitFor();
    await dialog.getByLabel('Name').fill('Germans');
    await dialog.getByLabel(/Share with everyone/).check();
    await dialog.getByRole('button', { name: 'Save segment' }).click();
    await dialog.locator('.segment-row').filter({ hasText: 'Germans' }).waitFor();
    await page.screenshot({ path: screenshotPath('dashboard-segments') });
    await page.context().close();

    // Another day, without filters: the segment is listed and a click applies it.
    for (const dark of [false, true]) {
      const later = await open(`${t.url}/${account.domain}${range}`, { dark });
      await later.getByRole('button', { name: 'Segments' }).click();
      const menu = later.getByRole('dialog', { name: 'Segments' });
      const row = menu.locator('.segment-row').filter({ hasText: 'Germans' });
      await row.getByText('Shared').waitFor();
      if (dark) await later.screenshot({ path: screenshotPath('dashboard-segments-dark') });
      await row.getByRole('button', { name: /Germans/ }).click();
      await later.getByRole('button', { name: 'Remove filter: Segment is Germans' }).waitFor();
      const [filter] = filtersInUrl(later);
      expect(filter).toEqual(['is', 'segment', [expect.any(Number)]]);
      await expect.poll(() => visitors(later), { timeout: 15_000 }).toBe('2');
      await expectNoPanelError(later);
      if (!dark) {
        // The same segment through the query API.
        const answer = await apiQuery([filter]);
        expect(answer.status).toBe(200);
        expect(String(answer.body.results[0].metrics[0])).toBe('2');
        await later.screenshot({ path: screenshotPath('dashboard-segment-applied'), fullPage: true });
      }
      await later.context().close();
    }

    // Renamed and deleted from the menu.
    const last = await open(`${t.url}/${account.domain}${range}`, { phone: true });
    await last.getByRole('button', { name: 'Segments' }).click();
    const menu = last.getByRole('dialog', { name: 'Segments' });
    await menu.locator('.segment-row').first().waitFor();
    await last.screenshot({ path: screenshotPath('dashboard-segments-phone') });
    // The only segment: its row holds a form while it is renamed.
    const row = menu.locator('.segment-row').first();
    await row.getByRole('button', { name: 'Rename' }).click();
    await row.getByLabel('New name for Germans').fill('German visitors');
    await row.getByRole('button', { name: 'Save' }).click();
    const renamed = menu.locator('.segment-row').filter({ hasText: 'German visitors' });
    await renamed.waitFor();
    await last.screenshot({ path: screenshotPath('dashboard-segment-renamed-phone') });
    await renamed.getByRole('button', { name: 'Delete' }).click();
    await last
      .getByRole('dialog', { name: /Delete the segment/ })
      .getByRole('button', { name: 'Delete' })
      .click();
    await menu.getByText('No saved segments yet').waitFor();
    await last.context().close();
  });
});
