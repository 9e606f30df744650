import { copyFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshotPath } from '../support/browser.js';
import { bearer, type TestApp } from '../support/testApp.js';
import { signedInContext } from '../support/webSession.js';
import { type RealisticSite, startRealisticDashboard } from './dashboardRealisticSite.js';

// The dashboard of realistic data (test/web/dashboardRealisticSite.ts) in Chromium, light and
// dark, desktop and phone, saved under test-results/screenshots/. With UPDATE_SCREENSHOT=1 the
// light desktop view also replaces docs/dashboard.png, the README's picture.
describe('dashboard screenshots with realistic data', () => {
  let t: TestApp;
  let site: RealisticSite;
  let browser: Browser;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ t, site, browser, close } = await startRealisticDashboard());
  });
  afterAll(() => close?.());

  /** The dashboard with every panel filled (or the test fails on the one that is not). */
  async function open(options: { dark: boolean; phone: boolean }): Promise<Page> {
    const context = await signedInContext(browser, t, site.userId, { ...options, height: 1130 });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${t.url}/${site.domain}`);
    for (const panel of ['Sources', 'Pages', 'Devices', 'Behaviours']) {
      await page.getByRole('region', { name: panel }).locator('.panel-row').first().waitFor({ timeout: 20_000 });
    }
    // The map loads as its panel nears the screen (panels/WhenVisible.tsx): below the fold on a phone.
    await page.getByRole('region', { name: 'Locations' }).scrollIntoViewIfNeeded();
    await page.getByRole('region', { name: 'Locations' }).locator('path.has-data').first().waitFor({ timeout: 20_000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(() => page.locator('.graph-plot canvas').count(), { timeout: 20_000 }).toBe(1);
    // The funnel narrows step by step: pricing, then sign-up, then purchase; the card then shows the goals again.
    const behaviours = page.getByRole('region', { name: 'Behaviours' });
    await behaviours.getByRole('tab', { name: 'Funnels' }).click();
    const steps = behaviours.locator('.funnel-step');
    await expect.poll(() => steps.count(), { timeout: 20_000 }).toBe(3);
    const counts = (await steps.locator('.funnel-count').allTextContents()).map(
      (text) => Number.parseFloat(text.replace('k', '')) * (text.includes('k') ? 1000 : 1),
    );
    expect(counts[0]).toBeGreaterThan(counts[1]!);
    expect(counts[1]).toBeGreaterThan(counts[2]!);
    await behaviours.getByRole('tab', { name: 'Goals' }).click();
    await behaviours.locator('.panel-row').first().waitFor({ timeout: 20_000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByText(/^\d+ current visitors?$/).waitFor({ timeout: 20_000 });
    expect(errors).toEqual([]);
    return page;
  }

  it('shows the last 28 days as the query API counts them, in every panel, light and dark, desktop and phone', async () => {
    const response = await fetch(`${t.url}/api/v2/query`, {
      method: 'POST',
      headers: { ...bearer(site.key), 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: site.domain, metrics: ['visitors'], date_range: '28d' }),
    });
    const visitors = (await response.json()).results[0].metrics[0] as number;
    expect(visitors).toBeGreaterThan(2000);

    for (const dark of [false, true]) {
      for (const phone of [false, true]) {
        const page = await open({ dark, phone });
        const shown = () => page.locator('[data-metric="visitors"] .stat-value').textContent();
        await expect.poll(shown, { timeout: 20_000 }).toBe(`${(visitors / 1000).toFixed(1).replace(/\.0$/, '')}k`);
        // Nothing wider than the phone: no sideways scrolling.
        if (phone) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
        const name = `dashboard-realistic-${dark ? 'dark' : 'light'}-${phone ? 'phone' : 'desktop'}`;
        await page.screenshot({ path: screenshotPath(name), fullPage: phone });
        // The whole desktop page too: the panels below the first screen (locations, goals, properties, funnels).
        if (!phone) await page.screenshot({ path: screenshotPath(`${name}-full`), fullPage: true });
        if (!dark && !phone && process.env.UPDATE_SCREENSHOT === '1') {
          copyFileSync(screenshotPath(name), new URL('../../docs/dashboard.png', import.meta.url));
        }
        await page.context().close();
      }
    }
  });
});
