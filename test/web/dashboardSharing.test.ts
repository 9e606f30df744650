import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmallSite } from '../query/smallSite.js';
import { launchBrowser, screenshotPath } from '../support/browser.js';
import { type Account, bearer, createAccount, type TestApp } from '../support/testApp.js';
import { signedInContext, signedInHeaders } from '../support/webSession.js';
import { csvRows, readZip } from '../support/zip.js';

// Sharing the dashboard: a shared link embedded in another site's page, and the whole view as a
// ZIP of CSV files, on the small site (test/query/smallSite.ts): 8–9 Jan 2024, 4 visitors,
// 5 visits, 8 pageviews; DE 2 visitors, US 1, FR 1; one Signup.
describe('sharing the dashboard', () => {
  let t: TestApp;
  let account: Account;
  let browser: Browser;
  let sharedUrl: string;
  const range = 'period=custom&from=2024-01-08&to=2024-01-09';

  beforeAll(async () => {
    ({ t, account } = await startSmallSite());
    browser = await launchBrowser();
    const response = await fetch(`${t.url}/api/v1/sites/shared-links`, {
      method: 'PUT',
      headers: { ...bearer(account.key), 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: account.domain, name: 'Public' }),
    });
    sharedUrl = (await response.json()).url.replace(/^http:\/\/localhost:\d+/, t.url);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signedInPage(options: { dark?: boolean; phone?: boolean } = {}): Promise<Page> {
    const context = await signedInContext(browser, t, account.userId, options);
    return context.newPage();
  }

  /** A page of another site (another host name and port) holding frames of the given addresses. */
  async function hostPage(frames: Record<string, string>): Promise<{ url: string; server: Server }> {
    const html = `<!doctype html><title>Another site</title><h1>Another site</h1>${Object.entries(frames)
      .map(([name, src]) => `<iframe name="${name}" src="${src}" style="width: 100%; height: 700px; border: 1px solid #ccc"></iframe>`)
      .join('')}`;
    const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(html));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    // `localhost` against the service's 127.0.0.1: another origin, and another site for cookies.
    return { url: `http://localhost:${(server.address() as AddressInfo).port}/`, server };
  }

  it('lets another site frame a shared link, and keeps refusing frames of signed-in pages', async () => {
    const shared = await fetch(`${sharedUrl}&embed=true`);
    expect(shared.headers.get('content-security-policy')).toContain('frame-ancestors *');
    expect(shared.headers.get('x-frame-options')).toBeNull();
    const signedIn = await fetch(`${t.url}/${account.domain}`);
    expect(signedIn.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(signedIn.headers.get('x-frame-options')).toBe('DENY');

    const page = await signedInPage();
    const host = await hostPage({
      shared: `${sharedUrl}&embed=true&theme=dark&background=transparent&${range}`,
      private: `${t.url}/${account.domain}?${range}`,
    });
    try {
      await page.goto(host.url);
      const frame = page.frameLocator('iframe[name="shared"]');
      await expect.poll(() => frame.locator('[data-metric="visitors"] .stat-value').textContent(), { timeout: 20_000 }).toBe('4');
      const embedded = page.frame({ name: 'shared' });
      expect(await embedded?.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
      expect(await frame.locator('main.embedded').count()).toBe(1);
      // The refused frame never gets the app: Chromium shows its own error page in it.
      const refused = page.frame({ name: 'private' });
      await expect.poll(() => refused?.url(), { timeout: 10_000 }).toMatch(/^chrome-error:/);
      expect(await page.frameLocator('iframe[name="private"]').locator('#root').count()).toBe(0);
      await page.screenshot({ path: screenshotPath('dashboard-embedded'), fullPage: true });
    } finally {
      host.server.close();
      await page.context().close();
    }
  });

  it('fixes an embed’s theme and background whatever the system’s, on a phone too', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 812 }, colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto(`${sharedUrl}&embed=true&theme=light&background=%23fafafa&${range}`);
    await page.locator('[data-metric="visitors"] .stat-value').filter({ hasText: '4' }).waitFor({ timeout: 20_000 });
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(250, 250, 250)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: screenshotPath('dashboard-embedded-light-phone'), fullPage: true });
    // An invalid background is ignored, and without embed=true the options do nothing.
    await page.goto(`${sharedUrl}&theme=light&background=url(x)&${range}`);
    await page.locator('.top-stats').waitFor({ timeout: 20_000 });
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await context.close();
  });

  it('shows the embed code of a shared link in its settings', async () => {
    const page = await signedInPage();
    await page.goto(`${t.url}/${account.domain}/settings/visibility`);
    await page.locator('summary', { hasText: 'Embed code' }).click();
    await page.getByLabel('Theme').selectOption('dark');
    const code = await page.locator('.embed-code pre').textContent();
    const slug = new URL(sharedUrl).searchParams.get('auth');
    expect(code).toMatch(
      new RegExp(`^<iframe src="http://[^"]+/share/${account.domain}\\?auth=${slug}&embed=true&theme=dark" title="${account.domain} analytics"`),
    );
    await page.screenshot({ path: screenshotPath('settings-embed-code'), fullPage: true });
    await page.context().close();
  });

  it("downloads the view as a ZIP of one CSV per panel, with the view's range and filters", async () => {
    const page = await signedInPage();
    await page.goto(`${t.url}/${account.domain}?${range}`);
    await page.locator('[data-metric="visitors"] .stat-value').filter({ hasText: '4' }).waitFor({ timeout: 20_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download ZIP' }).click()]);
    expect(download.suggestedFilename()).toBe(`${account.domain.replaceAll('.', '_')}_dashboard_20240108_20240109.zip`);
    const files = await readZip(readFileSync((await download.path()) as string));
    expect([...files.keys()]).toEqual([
      'visitors.csv',
      'channels.csv',
      'sources.csv',
      'utm_mediums.csv',
      'utm_sources.csv',
      'utm_campaigns.csv',
      'pages.csv',
      'entry_pages.csv',
      'exit_pages.csv',
      'countries.csv',
      'regions.csv',
      'cities.csv',
      'browsers.csv',
      'operating_systems.csv',
      'screen_sizes.csv',
      'conversions.csv',
    ]);
    const rows = (name: string) => csvRows(files.get(name) ?? '');
    // Two days, hour by hour, as the graph draws them; the buckets add up to the top stats.
    const graph = rows('visitors.csv');
    expect(graph).toHaveLength(48);
    expect(graph.reduce((sum, row) => sum + Number(row.pageviews), 0)).toBe(8);
    expect(graph.find((row) => row.time === '2024-01-08 10:00:00')).toMatchObject({ visitors: '1', pageviews: '2' });
    // Alice's second visit carries no country (an empty value, as the API answers it).
    expect(rows('countries.csv').map((row) => [row.country, row.visitors])).toEqual([
      ['DE', '2'],
      ['', '1'],
      ['FR', '1'],
      ['US', '1'],
    ]);
    expect(rows('pages.csv').find((row) => row.page === '/')).toMatchObject({ visitors: '3', pageviews: '4' });
    expect(rows('conversions.csv')).toEqual([{ goal: 'Signup', visitors: '1', events: '1', conversion_rate: '25' }]);
    await page.context().close();
  });

  it('downloads a shared link’s ZIP under its filters, and refuses a bad view with a sentence', async () => {
    const slug = new URL(sharedUrl).searchParams.get('auth');
    const filters = JSON.stringify([['is', 'event:page', ['/pricing']]]);
    const response = await fetch(`${t.url}/app/api/share/${slug}/dashboard.zip?date_range=2024-01-08,2024-01-09&filters=${encodeURIComponent(filters)}`);
    expect(response.status).toBe(200);
    const files = await readZip(Buffer.from(await response.arrayBuffer()));
    // Bob's visit bounced on /pricing; alice entered on /. Time on page is null (an empty cell): nobody left /pricing for another page.
    expect(csvRows(files.get('pages.csv') ?? '')).toEqual([{ page: '/pricing', visitors: '2', pageviews: '2', bounce_rate: '100', time_on_page: '' }]);
    // Views per visit counts every page of a visit, which a page filter no longer holds: the graph's file leaves it out.
    expect((files.get('visitors.csv') ?? '').split('\n')[0]).toBe('time,visitors,visits,pageviews,bounce_rate,visit_duration');
    const bad = await fetch(`${t.url}/app/api/share/${slug}/dashboard.zip?date_range=28d&filters=nonsense`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatch(/filters/);
  });

  it('draws the sparkline of a site without data without an error', async () => {
    const empty = await createAccount(t.app);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const { token } = await signedInHeaders(t.app, empty.userId);
    await page.context().addCookies([{ name: 'svc_session', value: token, url: t.url }]);
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${t.url}/sites`);
    await page.locator('svg.sparkline path').first().waitFor();
    expect(await page.locator('svg.sparkline path').first().getAttribute('d')).toMatch(/^M0/);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
