import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCustomProp } from '../../src/stores/meta/customProps.js';
import { startSmallSite } from '../query/smallSite.js';
import { launchBrowser, screenshotPath } from '../support/browser.js';
import { insertEvents } from '../support/eventFixtures.js';
import type { ManualClock } from '../support/manualClock.js';
import { type Account, bearer, type TestApp } from '../support/testApp.js';
import { signedInContext } from '../support/webSession.js';

// The dashboard's controls in Chromium: filter menu, shortcuts, comparison, interval, map,
// drill-downs, revenue, CSV. The small site (test/query/smallSite.ts, 8–9 Jan 2024) plus eve,
// a Chrome 120 visitor on Windows who buys for €20, and frank, who is on the site right now:
// the clock stands at 10 Jan 11:55 UTC, frank came at 11:50.
describe('dashboard controls', () => {
  let t: TestApp;
  let account: Account;
  let browser: Browser;
  const range = '?period=custom&from=2024-01-08&to=2024-01-09';

  beforeAll(async () => {
    let clock: ManualClock;
    ({ t, account, clock } = await startSmallSite({ goals: [{ eventName: 'Purchase', currency: 'EUR' }] }));
    clock.set('2024-01-10T11:55:00Z');
    await insertEvents(t.app, account.siteId, [
      { visitor: 'eve', at: '2024-01-09 19:00:00', page: '/shop', browser: 'Chrome', browserVersion: '120.0', os: 'Windows', osVersion: '11', country: 'GB' },
      { visitor: 'eve', at: '2024-01-09 19:02:00', name: 'Purchase', page: '/shop', revenue: { amount: 20, currency: 'EUR' } },
      { visitor: 'frank', at: '2024-01-10 11:50:00', page: '/' },
    ]);
    await addCustomProp(t.app.meta.db, account.siteId, 'plan', t.app.clock.now());
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function dashboard(search = range, options: { phone?: boolean } = {}): Promise<Page> {
    const context = await signedInContext(browser, t, account.userId, options);
    const page = await context.newPage();
    // The page's timers run on a clock the test can move (the realtime view's refresh).
    await page.clock.install();
    await page.goto(`${t.url}/${account.domain}${search}`);
    await page.locator('[data-metric="visitors"] .stat-value').filter({ hasText: /\d/ }).waitFor({ timeout: 15_000 });
    return page;
  }
  const visitors = (page: Page) => page.locator('[data-metric="visitors"] .stat-value').textContent();
  /** What the query API answers for the range and filters: the dashboard must show the same. */
  async function apiVisitors(filters: unknown[]): Promise<string> {
    const response = await fetch(`${t.url}/api/v2/query`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: account.domain, metrics: ['visitors'], date_range: ['2024-01-08', '2024-01-09'], filters }),
    });
    const body = await response.json();
    return String(body.results[0].metrics[0]);
  }
  const filtersInUrl = (page: Page) => JSON.parse(new URL(page.url()).searchParams.get('filters') ?? '[]');

  it('builds is not, contains, goal and property filters in the filter menu', async () => {
    const page = await dashboard();
    const add = async (dimension: string, operator: string, value: string, property?: string) => {
      await page.getByRole('button', { name: '+ Filter' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a filter' });
      await dialog.getByLabel('Filter by').selectOption(dimension);
      if (property) await dialog.getByLabel('Property', { exact: true }).selectOption(property);
      await dialog.getByLabel('Operator').selectOption(operator);
      await dialog.getByLabel('Value').fill(value);
      await dialog.getByRole('button', { name: 'Add filter' }).click();
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    };
    const expectFilters = async (filters: unknown[], chip: string) => {
      await page.getByRole('button', { name: `Remove filter: ${chip}` }).waitFor();
      expect(filtersInUrl(page)).toEqual(filters);
      const expected = await apiVisitors(filters);
      await expect.poll(() => visitors(page), { timeout: 15_000 }).toBe(expected);
    };

    await add('event:page', 'is_not', '/pricing');
    await expectFilters([['is_not', 'event:page', ['/pricing']]], 'Page is not /pricing');
    await page.getByRole('button', { name: 'Remove filter: Page is not /pricing' }).click();

    await add('event:page', 'contains', 'pric');
    await expectFilters([['contains', 'event:page', ['pric']]], 'Page contains pric');
    await page.getByRole('button', { name: 'Remove filter: Page contains pric' }).click();

    await add('event:goal', 'is', 'Signup');
    await expectFilters([['is', 'event:goal', ['Signup']]], 'Goal is Signup');
    expect(await visitors(page)).toBe('1');
    // A goal's dashboard heads with its conversions.
    expect(await page.locator('.top-stats .stat-label').allTextContents()).toEqual(['Unique conversions', 'Total conversions', 'Conversion rate']);

    await add('property', 'is', 'pro', 'plan');
    await expectFilters(
      [
        ['is', 'event:goal', ['Signup']],
        ['is', 'event:props:plan', ['pro']],
      ],
      'Property plan is pro',
    );
    await page.screenshot({ path: screenshotPath('dashboard-filter-menu-result'), fullPage: true });

    // A regular expression that is not one is refused in the menu, with the reason.
    await page.getByRole('button', { name: '+ Filter' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a filter' });
    await dialog.getByLabel('Operator').selectOption('matches');
    await dialog.getByLabel('Value').fill('/blog(');
    await dialog.getByRole('button', { name: 'Add filter' }).click();
    await dialog.getByText('“/blog(” is not a regular expression.').waitFor();
    await page.screenshot({ path: screenshotPath('dashboard-filter-menu') });
    await page.context().close();
  });

  it('moves between ranges with keyboard shortcuts, and shows who is on the site now', async () => {
    const page = await dashboard();
    await page.keyboard.press('w');
    await page.waitForURL(/period=7d/);
    // The last 7 whole days: 3–9 January, without frank (today).
    await expect.poll(() => visitors(page), { timeout: 15_000 }).toBe('5');
    await page.keyboard.press('r');
    await page.waitForURL(/period=realtime/);
    await expect.poll(() => visitors(page), { timeout: 15_000 }).toBe('1');
    await page.getByText('1 current visitor', { exact: true }).waitFor();
    // Someone arrives: within 30 seconds the realtime view shows them, without a reload.
    await insertEvents(t.app, account.siteId, [{ visitor: 'grace', at: '2024-01-10 11:54:00', page: '/pricing', country: 'DE' }]);
    await page.clock.fastForward(30_000);
    await expect.poll(() => visitors(page), { timeout: 15_000 }).toBe('2');
    await page.getByRole('region', { name: 'Pages' }).locator('.panel-row[data-value="/pricing"]').waitFor({ timeout: 15_000 });
    await page.getByText('2 current visitors', { exact: true }).waitFor({ timeout: 15_000 });
    await page.screenshot({ path: screenshotPath('dashboard-realtime'), fullPage: true });
    // This site has no imported data: no switch for it.
    expect(await page.getByLabel('Imported data').count()).toBe(0);
    // Typing in a field is not a shortcut.
    await page.getByRole('button', { name: '+ Filter' }).click();
    await page.getByRole('dialog').getByLabel('Value').pressSequentially('day');
    expect(new URL(page.url()).searchParams.get('period')).toBe('realtime');
    await page.context().close();
  });

  it('compares with a custom range and draws the graph in the chosen interval, all in the URL', async () => {
    const page = await dashboard();
    const plot = page.locator('.graph-plot');
    await expect.poll(() => plot.getAttribute('data-points'), { timeout: 15_000 }).toBe('48');
    await page.getByLabel('Interval').selectOption('day');
    await page.waitForURL(/interval=day/);
    await expect.poll(() => plot.getAttribute('data-points'), { timeout: 15_000 }).toBe('2');
    await page.getByLabel('Compare').selectOption('custom');
    const calendar = page.getByRole('dialog', { name: 'Comparison range' });
    await calendar.locator('[data-day="2024-01-06"]').click();
    await calendar.locator('[data-day="2024-01-07"]').click();
    await calendar.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/compare=custom&compare_from=2024-01-06&compare_to=2024-01-07/);
    await expect.poll(() => plot.getAttribute('data-comparison'), { timeout: 15_000 }).toBe('Compared range');
    // Nothing happened on 6–7 January: every change reads "—", not 0 % or ∞.
    await expect.poll(() => page.locator('[data-metric="visitors"] .stat-change').textContent(), { timeout: 15_000 }).toBe('—');
    await page.screenshot({ path: screenshotPath('dashboard-compare-custom'), fullPage: true });
    // Back undoes the comparison, then the interval; forward brings the comparison back.
    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has('compare'));
    await expect.poll(() => plot.getAttribute('data-comparison'), { timeout: 15_000 }).toBeNull();
    await page.goBack();
    await expect.poll(() => plot.getAttribute('data-points'), { timeout: 15_000 }).toBe('48');
    await page.goForward();
    await page.goForward();
    await expect.poll(() => plot.getAttribute('data-comparison'), { timeout: 15_000 }).toBe('Compared range');
    expect(await plot.getAttribute('data-interval')).toBe('day');
    await page.context().close();
  });

  it('draws the hour still filling as in progress, and exports the graph as CSV', async () => {
    const page = await dashboard('?period=day');
    const plot = page.locator('.graph-plot');
    // Today (10 Jan) by the hour; it is 11:55, so the 12th bucket is still filling.
    await expect.poll(() => plot.getAttribute('data-in-progress'), { timeout: 15_000 }).toBe('11');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const text = await readFile((await download.path()) as string, 'utf8');
    const lines = text.trim().split('\n');
    expect(lines[0]).toBe('bucket,visitors');
    // Today's range ends now: 00:00 to 11:00.
    expect(lines).toHaveLength(13);
    // frank, and grace who arrived in the realtime test.
    expect(lines[12]).toBe('2024-01-10 11:00:00,2');
    await page.context().close();
  });

  it('shows countries on a map, drills browsers down to versions, and goals with revenue', async () => {
    const page = await dashboard();
    const locations = page.getByRole('region', { name: 'Locations' });
    await locations.getByRole('tab', { name: 'Map' }).click();
    const germany = locations.locator('path.has-data[data-country="DE"]');
    await germany.waitFor({ timeout: 15_000 });
    expect(await locations.locator('path.has-data').count()).toBe(4);
    // The map has no column headings.
    expect(await locations.locator('.panel-columns').isVisible()).toBe(false);
    await page.screenshot({ path: screenshotPath('dashboard-map') });
    await germany.click();
    // The chip shows the country's flag before its words.
    await page.locator('.chip img.flag[src*="/assets/DE-"]').waitFor();
    await page.getByRole('button', { name: 'Remove filter: Country is Germany' }).click();

    const devices = page.getByRole('region', { name: 'Devices' });
    // Tabs answer the arrow keys, and the focus follows.
    await devices.getByRole('tab', { name: 'Browsers' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => devices.getByRole('tab', { name: 'Operating systems' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Operating systems');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => devices.getByRole('tab', { name: 'Browsers' }).getAttribute('aria-selected')).toBe('true');
    await devices.locator('.panel-row[data-value="Chrome"] .row-label').click();
    await devices.getByRole('tab', { name: 'Chrome versions' }).waitFor();
    await devices.locator('.panel-row[data-value="120.0"]').waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Remove filter: Browser is Chrome' }).click();
    await devices.getByRole('tab', { name: 'Browsers' }).waitFor();

    const goals = page.getByRole('region', { name: 'Behaviours' });
    const purchase = goals.locator('.panel-row[data-value="Purchase"] .num');
    await expect.poll(() => purchase.allTextContents(), { timeout: 15_000 }).toEqual(['1', '1', expect.stringMatching(/%$/), expect.stringMatching(/20\.00/)]);
    expect(await goals.locator('.panel-row[data-value="Signup"] .num').last().textContent()).toBe('—');
    await goals.getByRole('button', { name: 'Details' }).click();
    const details = page.getByRole('dialog');
    await details.locator('thead th').first().waitFor();
    expect(await details.locator('thead th').allTextContents()).toEqual(['Goal', 'Visitors ↓', 'Events', 'CR', 'Revenue', 'Average']);
    await details.getByRole('button', { name: 'Close' }).click();
    // The revenue goal chosen: its revenue heads the dashboard, in euros.
    await goals.locator('.panel-row[data-value="Purchase"] .row-label').click();
    await expect.poll(() => page.locator('[data-metric="total_revenue"] .stat-value').textContent(), { timeout: 15_000 }).toMatch(/^€20\.00$/);
    expect(await page.locator('[data-metric="average_revenue"] .stat-label').textContent()).toBe('Average revenue');
    await page.screenshot({ path: screenshotPath('dashboard-goal-revenue'), fullPage: true });
    // Each panel's tab is remembered in this browser, per site: a reload opens the same ones.
    await locations.getByRole('tab', { name: 'Regions' }).click();
    await devices.getByRole('tab', { name: 'Screen sizes' }).click();
    await page.reload();
    await expect.poll(() => locations.getByRole('tab', { name: 'Regions' }).getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => devices.getByRole('tab', { name: 'Screen sizes' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByRole('region', { name: 'Sources' }).getByRole('tab', { name: 'Channels' }).getAttribute('aria-selected')).toBe('true');
    await page.context().close();
  });

  it('says what went wrong when the URL asks for something the engine refuses', async () => {
    const context = await signedInContext(browser, t, account.userId);
    const page = await context.newPage();
    const filters = encodeURIComponent(JSON.stringify([['is', 'visit:planet', ['Mars']]]));
    await page.goto(`${t.url}/${account.domain}${range}&filters=${filters}`);
    const error = page.getByRole('region', { name: 'Top stats' }).locator('.form-error');
    await error.waitFor({ timeout: 15_000 });
    expect(await error.textContent()).toContain('visit:planet');
    await page.screenshot({ path: screenshotPath('dashboard-refused-filter'), fullPage: true });
    // The chip is there to remove it, and then the numbers come back.
    await page.getByRole('button', { name: 'Remove filter: visit:planet is Mars' }).click();
    await expect.poll(() => visitors(page), { timeout: 15_000 }).toBe('5');
    expect(await page.locator('.form-error').count()).toBe(0);
    await context.close();
  });

  it('fits a phone with the filter menu open', async () => {
    const page = await dashboard(range, { phone: true });
    await page.getByRole('button', { name: '+ Filter' }).click();
    await page.getByRole('dialog', { name: 'Add a filter' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: screenshotPath('dashboard-filter-menu-phone') });
    await page.context().close();
  });
});
