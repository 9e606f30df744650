import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshotPath } from '../support/browser.js';
import { dashboardAt, graphTooltip } from '../support/dashboardAt.js';

// The realtime view (docs/dashboard.md "Realtime"). The clock stands at Tue 9 Jan 2024, 12:05:30
// UTC, in the service and in the browser. Pat is on the site now (two pageviews at 12:03 and
// 12:04), Quinn came a quarter of an hour ago, Robin three quarters of an hour ago.
describe('the realtime view', () => {
  const now = '2024-01-09T12:05:30Z';
  const site = dashboardAt(now, [
    { visitor: 'pat', at: '2024-01-09 12:03:00', page: '/' },
    { visitor: 'pat', at: '2024-01-09 12:04:00', page: '/pricing' },
    { visitor: 'quinn', at: '2024-01-09 11:50:00', page: '/' },
    { visitor: 'robin', at: '2024-01-09 11:20:00', page: '/' },
  ]);
  const stat = (page: Page, key: string) => page.locator(`[data-stat="${key}"]`);
  const hoverBar = (page: Page, i: number, count: number) => graphTooltip(page, i, count, 'bars');

  it('opens from the header’s current visitors', async () => {
    const page = await site.open('?period=7d');
    const link = page.getByRole('button', { name: /current visitor/ });
    // Only Pat was on the site in the last five minutes.
    await expect.poll(() => link.textContent(), { timeout: 15_000 }).toBe('1 current visitor');
    await link.click();
    await page.waitForURL(/period=realtime/);
    await expect.poll(() => stat(page, 'current').locator('.stat-value').textContent(), { timeout: 15_000 }).toBe('1');
    await page.context().close();
  });

  it('shows current visitors, the last 30 minutes’ visitors and pageviews, and pageviews by the minute as bars', async () => {
    for (const [dark, phone] of [
      [false, false],
      [true, false],
      [false, true],
    ] as const) {
      const page = await site.open('?period=realtime', { dark, phone });
      const labels = page.locator('.top-stats .stat-label');
      await expect
        .poll(() => labels.allTextContents(), { timeout: 15_000 })
        .toEqual(['Current visitors', 'Unique visitors (last 30 min)', 'Pageviews (last 30 min)']);
      await expect.poll(() => stat(page, 'pageviews').locator('.stat-value').textContent(), { timeout: 15_000 }).toBe('3');
      expect(await stat(page, 'current').locator('.stat-value').textContent()).toBe('1');
      expect(await stat(page, 'visitors').locator('.stat-value').textContent()).toBe('2');
      // Figures only, no change against an earlier half hour.
      expect(await page.locator('.top-stats .stat-change').count()).toBe(0);
      expect(await page.locator('.top-stats button').count()).toBe(0);

      const plot = page.locator('.graph-plot');
      await expect.poll(() => plot.getAttribute('data-points'), { timeout: 15_000 }).toBe('31');
      expect(await plot.getAttribute('data-shape')).toBe('bars');
      expect(await plot.getAttribute('data-dashed')).toBe('30');
      // 11:35 … 12:05: Quinn's pageview at 11:50, Pat's at 12:03 and 12:04.
      expect(await hoverBar(page, 15, 31)).toMatch(/11:50 Pageviews 1$/);
      expect(await hoverBar(page, 30, 31)).toMatch(/12:05 In progress Pageviews 0$/);
      await hoverBar(page, 29, 31);
      await page.screenshot({ path: screenshotPath(`realtime-${dark ? 'dark' : 'light'}-${phone ? 'phone' : 'desktop'}`), fullPage: phone });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone ? 390 : 1280);
      await page.context().close();
    }
  });
});
