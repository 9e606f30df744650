import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCustomProp } from '../../src/stores/meta/customProps.js';
import { insertFunnel } from '../../src/stores/meta/funnels.js';
import { listSiteGoals } from '../../src/stores/meta/goals.js';
import { startSmallSite } from '../query/smallSite.js';
import { launchBrowser, screenshotPath } from '../support/browser.js';
import { type Account, bearer, type TestApp } from '../support/testApp.js';
import { signedInContext } from '../support/webSession.js';

// The filter menu's behavioural filters in Chromium (docs/dashboard.md "Filters"): whole visits
// that did, or did not, reach a goal or view a page. On the small site (test/query/smallSite.ts)
// only alice's first visit signs up; bob's and alice's first visits view /pricing.
describe('dashboard behavioural filters', () => {
  let t: TestApp;
  let account: Account;
  let browser: Browser;
  const range = '?period=custom&from=2024-01-08&to=2024-01-09';
  const reachedSignup = ['has_done', ['is', 'event:goal', ['Signup']]];

  beforeAll(async () => {
    ({ t, account } = await startSmallSite({ goals: [{ pagePath: '/pricing' }] }));
    // A property and a funnel, so their tabs too must answer the behavioural filters.
    await addCustomProp(t.app.meta.db, account.siteId, 'plan', t.app.clock.now());
    const goals = await listSiteGoals(t.app.meta.db, account.siteId);
    const goalIds = ['Visit /pricing', 'Signup'].map((name) => goals.find((goal) => goal.displayName === name)?.id ?? 0);
    await insertFunnel(t.app.meta.db, { siteId: account.siteId, name: 'Pricing to signup', goalIds }, t.app.clock.now());
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function open(url: string): Promise<Page> {
    const context = await signedInContext(browser, t, account.userId);
    const page = await context.newPage();
    await page.goto(url);
    await page.locator('[data-metric="visitors"] .stat-value').filter({ hasText: /\d/ }).waitFor({ timeout: 15_000 });
    return page;
  }
  const visitors = (page: Page) => page.locator('[data-metric="visitors"] .stat-value').textContent();
  const filtersInUrl = (page: Page) => JSON.parse(new URL(page.url()).searchParams.get('filters') ?? '[]');
  /** The same question asked of the query API directly: the dashboard must show its answer. */
  async function apiVisitors(filters: unknown[]): Promise<string> {
    const response = await fetch(`${t.url}/api/v2/query`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: account.domain, metrics: ['visitors'], date_range: ['2024-01-08', '2024-01-09'], filters }),
    });
    const body = await response.json();
    return String(body.results[0].metrics[0]);
  }
  async function addBehaviour(page: Page, dimension: string, scope: string, value: string, screenshot?: string) {
    await page.getByRole('button', { name: '+ Filter' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a filter' });
    await dialog.getByLabel('Filter by').selectOption(dimension);
    await dialog.getByLabel('Show').selectOption(scope);
    await dialog.getByLabel('Value').fill(value);
    if (screenshot) await page.screenshot({ path: screenshotPath(screenshot) });
    await dialog.getByRole('button', { name: 'Add filter' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  }
  /** Every tab of every panel (and its details view, when asked), and the graph, answer the view's filters without an error. */
  async function expectEveryPanelAnswers(page: Page, options: { details?: boolean } = {}) {
    const panels = await page.locator('section.panel').all();
    // Sources, pages, locations, devices, and behaviours (goals, properties, funnels).
    expect(panels.length).toBe(5);
    for (const panel of panels) {
      const tabs = await panel.getByRole('tab').all();
      for (const tab of tabs.length ? tabs : [null]) {
        await tab?.click();
        const where = `${await panel.getAttribute('aria-label')} › ${(await tab?.textContent()) ?? ''}`;
        await expect.poll(() => panel.locator('.panel-skeleton').count(), { timeout: 15_000, message: where }).toBe(0);
        expect(await panel.locator('.form-error').allTextContents(), where).toEqual([]);
        const details = panel.getByRole('button', { name: 'Details' });
        if (!options.details || (await details.count()) === 0) continue;
        await details.click();
        const dialog = page.getByRole('dialog');
        // Rows, the empty sentence or an error: each shows only once the answer is in.
        await dialog.locator('tbody tr, .form-error, .panel-empty').first().waitFor({ timeout: 15_000 });
        expect(await dialog.locator('.form-error').allTextContents(), `${where} › details`).toEqual([]);
        await dialog.getByRole('button', { name: 'Close' }).click();
        await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
      }
    }
    const graph = page.getByRole('region', { name: 'Graph' });
    await expect.poll(() => graph.locator('.form-error').allTextContents(), { timeout: 15_000 }).toEqual([]);
    await expect.poll(() => graph.locator('.graph-plot').getAttribute('data-points'), { timeout: 15_000 }).not.toBe('0');
    expect(await page.locator('.form-error').allTextContents()).toEqual([]);
  }

  it('builds "visits that reached a goal" in the menu; the chip survives reload and back, a row adds a filter beside it', async () => {
    const page = await open(`${t.url}/${account.domain}${range}`);
    await addBehaviour(page, 'event:goal', 'has_done', 'Signup', 'dashboard-filter-menu-has-done');
    const chip = 'Visits that reached goal Signup';
    await page.getByRole('button', { name: `Remove filter: ${chip}` }).waitFor();
    expect(filtersInUrl(page)).toEqual([reachedSignup]);
    const expected = await apiVisitors([reachedSignup]);
    expect(expected).toBe('1');
    await expect.poll(() => visitors(page), { timeout: 15_000 }).toBe(expected);
    // Whole visits, not only the goal's events: alice's signing-up visit viewed two pages.
    await expect.poll(() => page.locator('[data-metric="pageviews"] .stat-value').textContent(), { timeout: 15_000 }).toBe('2');
    await expectEveryPanelAnswers(page);
    await page.screenshot({ path: screenshotPath('dashboard-filter-has-done'), fullPage: true });

    // The URL holds the filter: a reload shows the same chip and number.
    await page.reload();
    await page.getByRole('button', { name: `Remove filter: ${chip}` }).waitFor();
    await expect.poll(() => visitors(page), { timeout: 15_000 }).toBe(expected);

    // Clicking a row adds a plain filter beside the behavioural one; back returns to it alone.
    // The graph shows views per visit, which a page filter does not allow: it falls back to visitors.
    await page.locator('[data-metric="views_per_visit"]').click();
    await expect.poll(() => page.locator('[data-metric="views_per_visit"]').getAttribute('aria-pressed')).toBe('true');
    const pages = page.getByRole('region', { name: 'Pages' });
    await pages.getByRole('tab', { name: 'Top pages' }).click();
    await pages.locator('[data-value="/pricing"] .row-label').click();
    await page.getByRole('button', { name: 'Remove filter: Page is /pricing' }).waitFor();
    expect(filtersInUrl(page)).toEqual([reachedSignup, ['is', 'event:page', ['/pricing']]]);
    await expectEveryPanelAnswers(page, { details: true });
    expect(await page.locator('[data-metric="visitors"]').getAttribute('aria-pressed')).toBe('true');
    await page.goBack();
    await expect.poll(() => filtersInUrl(page)).toEqual([reachedSignup]);
    expect(await page.getByRole('button', { name: 'Remove filter: Page is /pricing' }).count()).toBe(0);

    await page.getByRole('button', { name: `Remove filter: ${chip}` }).click();
    await expect.poll(() => filtersInUrl(page)).toEqual([]);
    await expect.poll(() => visitors(page), { timeout: 15_000 }).toBe(await apiVisitors([]));
    await page.context().close();
  });

  it('builds "visits that did not view a page", and shows it on a shared link', async () => {
    const page = await open(`${t.url}/${account.domain}${range}`);
    await addBehaviour(page, 'event:page', 'has_not_done', '/pricing');
    const chip = 'Visits that did not view page /pricing';
    const filter = ['has_not_done', ['is', 'event:page', ['/pricing']]];
    await page.getByRole('button', { name: `Remove filter: ${chip}` }).waitFor();
    expect(filtersInUrl(page)).toEqual([filter]);
    const expected = await apiVisitors([filter]);
    await expect.poll(() => visitors(page), { timeout: 15_000 }).toBe(expected);
    await expectEveryPanelAnswers(page);
    await page.context().close();

    const link = await (
      await fetch(`${t.url}/api/v1/sites/shared-links`, {
        method: 'PUT',
        headers: { ...bearer(account.key), 'content-type': 'application/json' },
        body: JSON.stringify({ site_id: account.domain, name: 'Board' }),
      })
    ).json();
    // A view written by hand may hold any filter the API takes: a `not` and an `or` read as words too.
    const handWritten = [
      filter,
      ['not', ['is', 'visit:source', ['Google']]],
      [
        'or',
        [
          ['is', 'visit:country', ['DE']],
          ['has_done', ['is', 'event:name', ['Signup']]],
        ],
      ],
    ];
    const shared = await open(
      `${link.url.replace(/^http:\/\/localhost:\d+/, t.url)}&period=custom&from=2024-01-08&to=2024-01-09&filters=${encodeURIComponent(JSON.stringify(handWritten))}`,
    );
    // (The country reads as its name in the browser's language.)
    const chips = [
      `Remove filter: ${chip}`,
      'Remove filter: not (Source is Google)',
      /^Remove filter: \(Country is .*Germany or Visits that sent event Signup\)$/,
    ];
    for (const name of chips) await shared.getByRole('button', { name }).waitFor();
    const expectedShared = await apiVisitors(handWritten);
    await expect.poll(() => visitors(shared), { timeout: 15_000 }).toBe(expectedShared);
    await expectEveryPanelAnswers(shared);
    await shared.screenshot({ path: screenshotPath('dashboard-filter-has-not-done-shared'), fullPage: true });
    await shared.context().close();
  });
});
