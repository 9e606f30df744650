import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSite } from '../../src/management/sites.js';
import { startSmallSite } from '../query/smallSite.js';
import { launchBrowser, screenshotPath } from '../support/browser.js';
import { insertEvents } from '../support/eventFixtures.js';
import type { ManualClock } from '../support/manualClock.js';
import type { Account, TestApp } from '../support/testApp.js';
import { signedInHeaders } from '../support/webSession.js';

// The Details view's search and Escape, the custom range's calendar, the time-zone pickers and
// the add-site form (docs/dashboard.md, docs/settings.md). The small site (test/query/smallSite.ts)
// has its visitors on 8 and 9 January 2024; the clock stands at Thu 1 Feb 2024 12:00 UTC, the
// first day of a month, in the service and in the browser.
describe('forms and pickers', () => {
  let t: TestApp;
  let account: Account;
  let browser: Browser;
  const now = '2024-02-01T12:00:00Z';

  beforeAll(async () => {
    let clock: ManualClock;
    ({ t, account, clock } = await startSmallSite());
    clock.set(now);
    await insertEvents(t.app, account.siteId, [{ visitor: 'erin', at: '2024-01-20 10:00:00', name: 'Download', page: '/', props: { format: 'pdf' } }]);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function open(path: string, options: { timezoneId?: string; dark?: boolean; phone?: boolean } = {}): Promise<Page> {
    const context = await browser.newContext({
      viewport: options.phone ? { width: 390, height: 844 } : { width: 1280, height: 900 },
      colorScheme: options.dark ? 'dark' : 'light',
      timezoneId: options.timezoneId,
    });
    const { token } = await signedInHeaders(t.app, account.userId);
    await context.addCookies([{ name: 'svc_session', value: token, url: t.url }]);
    const page = await context.newPage();
    await page.clock.install({ time: now });
    await page.goto(`${t.url}${path}`);
    return page;
  }

  it('clears a Details search with Escape, and closes the view with a second', async () => {
    const page = await open(`/${account.domain}`);
    await page.getByRole('region', { name: 'Pages' }).locator('.panel-row').first().waitFor({ timeout: 15_000 });
    await page.getByRole('region', { name: 'Pages' }).getByRole('button', { name: 'Details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pages: Top pages' });
    const search = dialog.getByRole('searchbox');
    await search.fill('pric');
    await expect.poll(() => dialog.locator('tbody tr').count(), { timeout: 15_000 }).toBe(1);
    await search.press('Escape');
    expect(await search.inputValue()).toBe('');
    expect(await dialog.isVisible()).toBe(true);
    await expect.poll(() => dialog.locator('tbody tr').count(), { timeout: 15_000 }).toBe(3);
    await search.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.context().close();
  });

  it('opens the custom range’s calendar on the days shown, not on a month of today alone', async () => {
    const page = await open(`/${account.domain}`);
    await page.locator('[data-metric="visitors"] .stat-value').filter({ hasText: /\d/ }).waitFor({ timeout: 15_000 });
    await page.keyboard.press('c');
    const calendar = page.getByRole('dialog', { name: 'Custom range' });
    // The last 28 days end yesterday, 31 January: the calendar shows January with them chosen.
    await calendar.getByText('January 2024').waitFor();
    expect(await calendar.locator('[data-day="2024-01-04"]').getAttribute('aria-pressed')).toBe('true');
    expect(await calendar.locator('[data-day="2024-01-03"]').getAttribute('aria-pressed')).toBe('false');
    await calendar.getByText('Jan 4, 2024 – Jan 31, 2024').waitFor();
    await page.screenshot({ path: screenshotPath('calendar-opens-on-range') });
    await calendar.locator('[data-day="2024-01-08"]').click();
    await calendar.locator('[data-day="2024-01-09"]').click();
    await calendar.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/period=custom&from=2024-01-08&to=2024-01-09/);
    await page.context().close();
  });

  it('groups the time zones by region with their offsets and preselects the browser’s, under its IANA name', async () => {
    const page = await open(`/sites/new?team=${account.teamId}`, { timezoneId: 'Asia/Calcutta' });
    const picker = page.getByLabel('Reporting time zone');
    expect(await picker.inputValue()).toBe('Asia/Kolkata');
    expect(await picker.locator('option:checked').textContent()).toBe('(UTC+05:30) Kolkata');
    expect(await picker.locator('optgroup[label="Europe"] option[value="Europe/Berlin"]').textContent()).toBe('(UTC+01:00) Berlin');
    for (const old of ['Asia/Calcutta', 'Asia/Asmera', 'GB-Eire', 'W-SU', 'UTC']) expect(await picker.locator(`option[value="${old}"]`).count()).toBe(0);
    const regions = await picker.locator('optgroup').evaluateAll((groups) => groups.map((group) => group.getAttribute('label')));
    expect(regions).toEqual(['UTC', 'Africa', 'America', 'Antarctica', 'Asia', 'Atlantic', 'Australia', 'Europe', 'Indian', 'Pacific']);

    // An address with a path is refused with a sentence, not cut back to its domain.
    await page.getByLabel('Domain').fill('https://www.example.com/shop');
    await page.getByRole('button', { name: 'Add site' }).click();
    await page.getByRole('alert').filter({ hasText: 'has a path or query (/shop): a site is a whole domain, so give example.com alone.' }).waitFor();
    await page.screenshot({ path: screenshotPath('add-site-path-refused') });
    await page.getByLabel('Domain').fill('https://www.example.com/');
    await picker.selectOption('Europe/Berlin');
    await page.getByRole('button', { name: 'Add site' }).click();
    await page.getByTestId('snippet').filter({ hasText: 'data-domain="example.com"' }).waitFor();
    await page.context().close();
  });

  it('keeps a site’s old zone name chosen in its settings until another is picked', async () => {
    await registerSite(t.app.meta.db, { teamId: account.teamId, domain: 'old-zone.example.com', timezone: 'Asia/Calcutta' }, t.app.clock.now());
    for (const options of [{}, { dark: true }, { phone: true }]) {
      const page = await open('/old-zone.example.com/settings/general', options);
      const picker = page.getByRole('combobox', { name: 'Time zone', exact: true });
      await picker.waitFor();
      expect(await picker.inputValue()).toBe('Asia/Calcutta');
      expect(await picker.locator('option:checked').textContent()).toBe('(UTC+05:30) Asia/Calcutta');
      await page.screenshot({ path: screenshotPath(`settings-time-zone${options.dark ? '-dark' : options.phone ? '-phone' : ''}`) });
      await page.context().close();
    }
  });

  const suggestions = (page: Page, list: string) =>
    page.locator(`datalist#${list} option`).evaluateAll((options) => options.map((option) => option.getAttribute('value')));

  it('suggests the custom events without a goal, and names a scroll goal "Scroll 75% on …"', async () => {
    const page = await open(`/${account.domain}/settings/goals`);
    // Signup has its goal already; pageviews and engagement are not custom events.
    await expect.poll(() => suggestions(page, 'goal-received-events')).toEqual(['Download']);
    expect(await page.getByLabel('Event name').getAttribute('list')).toBe('goal-received-events');
    await page.getByLabel('Event name').fill('Download');
    await page.getByRole('button', { name: 'Add goal' }).click();
    await page
      .locator('.settings-list strong')
      .filter({ hasText: /^Download$/ })
      .waitFor();
    await expect.poll(() => suggestions(page, 'goal-received-events')).toEqual([]);

    await page.getByRole('radio', { name: 'Scroll depth' }).check();
    await page.getByLabel('Page path').fill('/blog');
    await page.getByLabel('Scrolled at least (%)').fill('75');
    await page.getByRole('button', { name: 'Add goal' }).click();
    const scroll = page.locator('.settings-list li').filter({ hasText: 'Scroll 75% on /blog' });
    await scroll
      .locator('strong')
      .filter({ hasText: /^Scroll 75% on \/blog$/ })
      .waitFor();
    // Its default name says what it counts: no description repeats it.
    expect(await scroll.locator('strong + div.muted').count()).toBe(0);
    expect(await page.locator('.settings-list li').filter({ hasText: 'Download' }).locator('strong + div.muted').textContent()).toBe('Event Download');
    await page.screenshot({ path: screenshotPath('settings-goals-scroll-name'), fullPage: true });
    await page.context().close();
  });

  it('suggests the property keys the site received and does not list yet', async () => {
    const page = await open(`/${account.domain}/settings/properties`);
    // seats on two events, plan and format on one each.
    await expect.poll(() => suggestions(page, 'received-properties')).toEqual(['seats', 'format', 'plan']);
    await page.getByLabel('Property name').fill('seats');
    await page.getByRole('button', { name: 'Add property' }).click();
    await page
      .locator('.settings-list code')
      .filter({ hasText: /^seats$/ })
      .waitFor();
    await expect.poll(() => suggestions(page, 'received-properties')).toEqual(['format', 'plan']);
    await page.context().close();
  });

  it('keeps the theme chosen in Account settings, in this browser', async () => {
    const page = await open('/settings/account');
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
    const section = page.getByRole('region', { name: 'Theme' });
    expect(await section.getByRole('radio', { name: 'As the system' }).isChecked()).toBe(true);
    await expect.poll(theme).toBe('light');
    await section.getByRole('radio', { name: 'Dark' }).check();
    await expect.poll(theme).toBe('dark');
    await page.screenshot({ path: screenshotPath('account-theme-dark'), fullPage: true });
    await page.reload();
    await page.getByRole('region', { name: 'Theme' }).waitFor();
    await expect.poll(theme).toBe('dark');
    expect(await section.getByRole('radio', { name: 'Dark' }).isChecked()).toBe(true);
    // Every page takes it, the sites list too.
    await page.goto(`${t.url}/`);
    await page.getByRole('heading', { name: 'Sites' }).waitFor();
    await expect.poll(theme).toBe('dark');
    await page.goto(`${t.url}/settings/account`);
    await section.getByRole('radio', { name: 'As the system' }).check();
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(theme).toBe('dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(theme).toBe('light');
    await section.getByRole('radio', { name: 'Light' }).check();
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(theme).toBe('light');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: screenshotPath('account-theme-phone'), fullPage: true });
    await page.context().close();
  });
});
