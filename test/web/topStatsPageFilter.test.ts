import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshotPath } from '../support/browser.js';
import { dashboardAt } from '../support/dashboardAt.js';
import { bearer } from '../support/testApp.js';

// The top stats beside a page filter (docs/dashboard.md "Top stats"). On Mon 8 Jan 2024 alice
// reads /pricing for 40 s down to 60 %, bob for 20 s to the end; carol only sees the home page.
describe('the top stats of one page', () => {
  const range = '?period=custom&from=2024-01-08&to=2024-01-08';
  const pricing = encodeURIComponent(JSON.stringify([['is', 'event:page', ['/pricing']]]));
  const site = dashboardAt('2024-01-10T12:00:00Z', [
    { visitor: 'alice', at: '2024-01-08 10:00:00', page: '/' },
    { visitor: 'alice', at: '2024-01-08 10:01:00', page: '/pricing' },
    { visitor: 'alice', at: '2024-01-08 10:01:40', name: 'engagement', page: '/pricing', scrollDepth: 60, engagementMs: 40_000 },
    { visitor: 'bob', at: '2024-01-08 11:00:00', page: '/pricing' },
    { visitor: 'bob', at: '2024-01-08 11:00:20', name: 'engagement', page: '/pricing', scrollDepth: 100, engagementMs: 20_000 },
    { visitor: 'carol', at: '2024-01-08 12:00:00', page: '/' },
  ]);

  async function dashboard(search: string, options: { dark?: boolean; phone?: boolean } = {}): Promise<Page> {
    const page = await site.open(search, options);
    await page.locator('[data-metric="visitors"] .stat-value').filter({ hasText: /\d/ }).waitFor({ timeout: 15_000 });
    return page;
  }
  const figure = (page: Page, metric: string) => page.locator(`[data-metric="${metric}"] .stat-value`).textContent();
  const labels = (page: Page) => page.locator('.top-stats .stat-label').allTextContents();

  it('shows time on page and scroll depth instead of views per visit and visit duration', async () => {
    // The engine's own figures for the page, which the cards must show.
    const { t, account } = site.started();
    const res = await fetch(`${t.url}/api/v2/query`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/json' },
      body: JSON.stringify({
        site_id: account.domain,
        metrics: ['time_on_page', 'scroll_depth'],
        date_range: ['2024-01-08', '2024-01-08'],
        filters: [['is', 'event:page', ['/pricing']]],
      }),
    });
    expect((await res.json()).results[0].metrics).toEqual([30, 80]);

    const whole = await dashboard(range);
    expect(await labels(whole)).toEqual(['Unique visitors', 'Total visits', 'Total pageviews', 'Views per visit', 'Bounce rate', 'Visit duration']);
    await whole.context().close();

    for (const [dark, phone] of [
      [false, false],
      [true, true],
    ] as const) {
      const page = await dashboard(`${range}&filters=${pricing}`, { dark, phone });
      await expect
        .poll(() => labels(page), { timeout: 15_000 })
        .toEqual(['Unique visitors', 'Total visits', 'Total pageviews', 'Bounce rate', 'Time on page', 'Scroll depth']);
      await expect.poll(() => figure(page, 'time_on_page'), { timeout: 15_000 }).toBe('30s');
      expect(await figure(page, 'scroll_depth')).toBe('80%');
      expect(await figure(page, 'visitors')).toBe('2');
      // Picked, the graph draws the page's time by the hour.
      await page.locator('[data-metric="time_on_page"]').click();
      await page.waitForURL(/metric=time_on_page/);
      await page.locator('.graph-plot canvas').waitFor();
      await page.locator('.top-stats:not(.stale)').waitFor();
      expect(await page.locator('.form-error').count()).toBe(0);
      await page.screenshot({ path: screenshotPath(`top-stats-page-filter-${dark ? 'dark' : 'light'}-${phone ? 'phone' : 'desktop'}`), fullPage: phone });
      await page.context().close();
    }
  });
});
