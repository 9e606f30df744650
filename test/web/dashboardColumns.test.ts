import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshotPath } from '../support/browser.js';
import { bearer, type TestApp } from '../support/testApp.js';
import { signedInContext } from '../support/webSession.js';
import { type RealisticSite, startRealisticDashboard } from './dashboardRealisticSite.js';

/** The one rule of docs/dashboard.md: one decimal without a trailing ".0", two only under 0.1. */
const PERCENT_RULE = /^(0\.0\d|\d+(\.\d)?)%$/;

// The dashboard's columns of realistic data (test/web/dashboardRealisticSite.ts): each percentage
// column written by one rule, and the UTM tabs listing tagged visits only.
describe('dashboard columns', () => {
  let t: TestApp;
  let site: RealisticSite;
  let browser: Browser;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ t, site, browser, close } = await startRealisticDashboard());
  });
  afterAll(() => close?.());

  async function open(options: { dark?: boolean; phone?: boolean } = {}): Promise<Page> {
    const context = await signedInContext(browser, t, site.userId, { ...options, height: 1130 });
    const page = await context.newPage();
    await page.goto(`${t.url}/${site.domain}`);
    await page.getByRole('region', { name: 'Sources' }).locator('.panel-row').first().waitFor({ timeout: 20_000 });
    return page;
  }

  async function query(body: Record<string, unknown>): Promise<{ dimensions: string[]; metrics: number[] }[]> {
    const response = await fetch(`${t.url}/api/v2/query`, {
      method: 'POST',
      headers: { ...bearer(site.key), 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: site.domain, date_range: '28d', ...body }),
    });
    expect(response.status).toBe(200);
    return (await response.json()).results;
  }

  /** A panel's tab, chosen, once its rows have come. */
  async function tab(page: Page, panel: string, label: string): Promise<Locator> {
    const region = page.getByRole('region', { name: panel });
    await region.getByRole('tab', { name: label }).click();
    await region.locator('.panel-columns', { hasText: label }).waitFor();
    await region.locator('.panel-row').first().waitFor({ timeout: 20_000 });
    return region;
  }

  /** The figures of a panel's column, found by its heading, with each row's value. */
  async function column(region: Locator, heading: string): Promise<[string, string][]> {
    const headings = await region.locator('.panel-columns .num').allTextContents();
    const index = headings.indexOf(heading);
    expect(index, `${heading} among ${headings.join(', ')}`).toBeGreaterThanOrEqual(0);
    return region
      .locator('.panel-row')
      .evaluateAll(
        (rows, i) => rows.map((row) => [row.getAttribute('data-value') ?? '', row.querySelectorAll('.num')[i]?.textContent ?? ''] as [string, string]),
        index,
      );
  }

  it('writes every percentage column by one rule, the figures the query API gives', async () => {
    const page = await open();
    const exits = await tab(page, 'Pages', 'Exit pages');
    const shown = await column(exits, 'Exit rate');
    const rates = new Map(
      (await query({ metrics: ['visitors', 'exit_rate'], dimensions: ['visit:exit_page'] })).map((row) => [row.dimensions[0], row.metrics[1]]),
    );
    expect(shown.length).toBeGreaterThan(3);
    for (const [page, text] of shown) {
      expect(text).toMatch(PERCENT_RULE);
      // Rounded to the one decimal shown.
      expect(Math.abs(Number.parseFloat(text) - (rates.get(page) ?? Number.NaN))).toBeLessThanOrEqual(0.05 + 1e-9);
    }
    // Rates with decimals are among them, so the rule is seen at work (not whole numbers only).
    expect(shown.some(([, text]) => text.includes('.'))).toBe(true);

    const columns: [string, string[]][] = [['Exit rate', shown.map(([, text]) => text)]];
    const behaviours = page.getByRole('region', { name: 'Behaviours' });
    await behaviours.scrollIntoViewIfNeeded();
    await behaviours.getByRole('tab', { name: 'Goals' }).click();
    await behaviours.locator('.panel-row').first().waitFor({ timeout: 20_000 });
    columns.push(['CR', (await column(behaviours, 'CR')).map(([, text]) => text)]);
    await behaviours.getByRole('tab', { name: 'Funnels' }).click();
    const funnel = behaviours.locator('.funnel-rate');
    await expect.poll(() => funnel.count(), { timeout: 20_000 }).toBe(3);
    columns.push(['Funnel', await funnel.allTextContents()]);
    const sources = await tab(page, 'Sources', 'Sources');
    columns.push(['Bounce', (await column(sources, 'Bounce')).map(([, text]) => text)]);
    await page.getByRole('region', { name: 'Sources' }).getByRole('button', { name: 'Details' }).click();
    const details = page.getByRole('dialog').locator('.details-table tbody tr');
    await details.first().waitFor({ timeout: 20_000 });
    const share = await details.evaluateAll((rows) => rows.map((row) => row.querySelectorAll('td.num')[2]?.textContent ?? ''));
    columns.push(['Details share', share]);
    for (const [name, texts] of columns) {
      expect(texts.length, name).toBeGreaterThan(0);
      for (const text of texts) expect(text, `${name}: ${texts.join(' / ')}`).toMatch(PERCENT_RULE);
    }
    await page.keyboard.press('Escape');
    await behaviours.screenshot({ path: screenshotPath('dashboard-columns-behaviours') });
    await page.screenshot({ path: screenshotPath('dashboard-columns-full'), fullPage: true });
    await page.context().close();
  });

  it('lists only tagged visits in the UTM tabs and their details', async () => {
    const tagged = await query({ metrics: ['visitors'], dimensions: ['visit:utm_medium'], filters: [['is_not', 'visit:utm_medium', ['(not set)']]] });
    expect(tagged.length).toBeGreaterThan(0);
    for (const options of [{}, { dark: true }, { phone: true }]) {
      const page = await open(options);
      for (const [label, dimension] of [
        ['UTM medium', 'visit:utm_medium'],
        ['UTM source', 'visit:utm_source'],
        ['Campaigns', 'visit:utm_campaign'],
      ] as const) {
        const sources = await tab(page, 'Sources', label);
        const values = await sources.locator('.panel-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-value')));
        const expected = await query({ metrics: ['visitors'], dimensions: [dimension], filters: [['is_not', dimension, ['(not set)']]] });
        expect(values, label).toEqual(expected.map((row) => row.dimensions[0]));
        expect(values).not.toContain('(not set)');
        if (label !== 'UTM medium') continue;
        const name = `dashboard-utm-medium${'dark' in options ? '-dark' : 'phone' in options ? '-phone' : ''}`;
        await sources.screenshot({ path: screenshotPath(name) });
        await sources.getByRole('button', { name: 'Details' }).click();
        const rows = page.getByRole('dialog').locator('.details-table tbody tr');
        await rows.first().waitFor({ timeout: 20_000 });
        expect(await rows.evaluateAll((list) => list.map((row) => row.getAttribute('data-value')))).toEqual(values);
        await page.screenshot({ path: screenshotPath(`${name}-details`) });
        await page.keyboard.press('Escape');
      }
      await page.context().close();
    }
  });
});
