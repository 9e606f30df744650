import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { launchBrowser, screenshotPath } from '../support/browser.js';
import { startTestApp, type TestApp } from '../support/testApp.js';
import { signedInContext } from '../support/webSession.js';
import { createRealisticSite, REALISTIC_NOW } from './dashboardRealisticSite.js';

// The dashboard's layout on realistic data (goals, a custom property, a funnel): cards level,
// panels filling their rows, light and dark, desktop and phone.
describe('the dashboard layout', () => {
  let t: TestApp;
  let site: { userId: number; domain: string };
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(REALISTIC_NOW) });
    site = await createRealisticSite(t.app);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function open(query: string, options: { dark?: boolean; phone?: boolean } = {}): Promise<Page> {
    const context = await signedInContext(browser, t, site.userId, { ...options, height: 1000 });
    const page = await context.newPage();
    await page.goto(`${t.url}/${site.domain}${query}`);
    return page;
  }
  const box = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox()) ?? { x: 0, y: 0, width: 0, height: 0 };

  it('keeps the top stats level under a goal filter, on one line each', async () => {
    for (const options of [{}, { dark: true }, { phone: true }]) {
      const page = await open(`?filters=${encodeURIComponent(JSON.stringify([['is', 'event:goal', ['Signup']]]))}`, options);
      await page.locator('.stat-label', { hasText: 'Unique conversions' }).waitFor({ timeout: 20_000 });
      await page.locator('[data-metric="visitors"] .stat-value').filter({ hasText: /\d/ }).waitFor({ timeout: 20_000 });
      const labels = page.locator('.stat-label');
      const heights = await labels.evaluateAll((nodes) => nodes.map((node) => node.getBoundingClientRect().height));
      expect(new Set(heights).size).toBe(1);
      const first = await box(page, '.stat:nth-child(1) .stat-value');
      const second = await box(page, '.stat:nth-child(2) .stat-value');
      expect(second.y).toBe(first.y);
      const name = `dashboard-goal-filter${'dark' in options ? '-dark' : ''}${'phone' in options ? '-phone' : ''}`;
      await page.screenshot({ path: screenshotPath(name), fullPage: 'phone' in options });
      await page.context().close();
    }
  });

  it('sets goals, properties and the funnel in one card across the row, lists only events that carry the property', async () => {
    const page = await open('');
    const card = page.getByRole('region', { name: 'Behaviours' });
    await card.getByRole('tab', { name: 'Properties' }).click();
    await card.locator('.panel-row').first().waitFor({ timeout: 20_000 });
    expect(await card.locator('.panel-row[data-value="(none)"]').count()).toBe(0);
    // The card is the last of its row alone: it spans it.
    const reports = await box(page, '.reports');
    const behaviours = await box(page, 'section[aria-label="Behaviours"]');
    expect(behaviours.width).toBeCloseTo(reports.width, 0);
    await card.getByRole('tab', { name: 'Funnels' }).click();
    await card.locator('.funnel-step').nth(2).waitFor({ timeout: 20_000 });
    expect((await box(page, 'section[aria-label="Behaviours"]')).height).toBeLessThan(420);
    await page.screenshot({ path: screenshotPath('dashboard-layout'), fullPage: true });
    await page.context().close();
  });

  it('loads the world map only when the locations panel comes into view', async () => {
    const page = await open('');
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    // A screen short enough that the locations panel starts well below it.
    await page.setViewportSize({ width: 1280, height: 700 });
    await page.reload();
    await page.getByRole('region', { name: 'Pages' }).locator('.panel-row').first().waitFor({ timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    expect(requested.filter((path) => path.startsWith('/assets/WorldMap-'))).toEqual([]);
    await page.getByRole('region', { name: 'Locations' }).scrollIntoViewIfNeeded();
    await page.getByRole('region', { name: 'Locations' }).locator('path.has-data').first().waitFor({ timeout: 20_000 });
    expect(requested.filter((path) => path.startsWith('/assets/WorldMap-'))).toHaveLength(1);
    await page.context().close();
  });
});
