import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantTeamRole } from '../../src/stores/meta/guests.js';
import { startSmallSite } from '../query/smallSite.js';
import { launchBrowser, screenshotPath } from '../support/browser.js';
import { graphTooltip } from '../support/dashboardAt.js';
import { insertEvents } from '../support/eventFixtures.js';
import type { ManualClock } from '../support/manualClock.js';
import { type Account, bearer, createAccount, type TestApp } from '../support/testApp.js';
import { signedInContext } from '../support/webSession.js';

// The graph, the ranges and the shortcuts in Chromium (docs/dashboard.md "The graph", "Keyboard
// shortcuts"). The small site (test/query/smallSite.ts): 3 visitors on Mon 8 Jan 2024, 2 on Tue
// 9 Jan; erin on Mon 1 Jan and Tue 2 Jan too. The clock stands at Wed 10 Jan 11:55 UTC, in the
// service and in the browser.
describe('the dashboard graph, ranges and shortcuts', () => {
  let t: TestApp;
  let account: Account;
  let browser: Browser;
  const now = '2024-01-10T11:55:00Z';

  beforeAll(async () => {
    let clock: ManualClock;
    ({ t, account, clock } = await startSmallSite());
    clock.set(now);
    await insertEvents(t.app, account.siteId, [
      { visitor: 'erin', at: '2024-01-01 10:00:00', page: '/' },
      { visitor: 'erin', at: '2024-01-02 10:00:00', page: '/' },
    ]);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function dashboard(search: string, options: { phone?: boolean; dark?: boolean; userId?: number } = {}): Promise<Page> {
    const context = await signedInContext(browser, t, options.userId ?? account.userId, options);
    const page = await context.newPage();
    await page.clock.install({ time: now });
    await page.goto(`${t.url}/${account.domain}${search}`);
    await page.locator('[data-metric="visitors"] .stat-value').filter({ hasText: /\d/ }).waitFor({ timeout: 15_000 });
    return page;
  }
  const visitors = (page: Page) => page.locator('[data-metric="visitors"] .stat-value').textContent();

  const hover = (page: Page, i: number, count: number) => graphTooltip(page, i, count);

  it('shows a tooltip at the pointer with the date, both figures and the change, and no legend', async () => {
    const page = await dashboard('?period=custom&from=2024-01-08&to=2024-01-09&interval=day&compare=custom&compare_from=2024-01-01&compare_to=2024-01-02');
    const text = await hover(page, 1, 2);
    // Tue 9 Jan: 2 visitors; its compared bucket, Tue 2 Jan: erin alone; twice as many.
    expect(text).toMatch(/^Tue, Jan 9, 2024 /);
    expect(text).toMatch(/Unique visitors 2/);
    expect(text).toContain('Tue, Jan 2, 2024 1');
    expect(text).toContain('Change ↑ 100%');
    expect(await page.locator('.u-legend').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('graph-tooltip') });
    await page.mouse.move(5, 5);
    await expect.poll(() => page.getByRole('tooltip').isVisible()).toBe(false);
    await page.context().close();
  });

  it('counts whole visitors on an empty graph', async () => {
    const page = await dashboard('?period=custom&from=2023-06-01&to=2023-06-07');
    await page.locator('.graph-plot[data-points="7"] canvas').waitFor({ timeout: 15_000 });
    expect(await page.locator('.graph-plot').getAttribute('data-y-ticks')).toBe('0 1');
    await page.context().close();
  });

  it('picks yesterday with E, the last 30 days with T, and moves the range with the arrows', async () => {
    const page = await dashboard('');
    await page.keyboard.press('e');
    await page.waitForURL(/period=yesterday/);
    // Yesterday is 9 January: alice and dave.
    await expect.poll(() => visitors(page), { timeout: 15_000 }).toBe('2');
    expect(await page.getByLabel('Date range').inputValue()).toBe('yesterday');
    await page.keyboard.press('ArrowLeft');
    await page.waitForURL(/from=2024-01-08&to=2024-01-08/);
    await expect.poll(() => visitors(page), { timeout: 15_000 }).toBe('3');
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(/period=yesterday/);
    await page.keyboard.press('t');
    await page.waitForURL(/period=30d/);
    // 11 Dec – 9 Jan: everyone but the bot.
    await expect.poll(() => visitors(page), { timeout: 15_000 }).toBe('5');
    await page.keyboard.press('x');
    await page.waitForURL(/compare=previous_period/);
    await page.context().close();
  });

  it('lists every shortcut in the ? overlay', async () => {
    const page = await dashboard('');
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    const rows = await help.locator('tr').allInnerTexts();
    expect(rows.map((row) => row.replace(/\s+/g, ' ').trim())).toEqual(
      expect.arrayContaining(['D Today', 'E Yesterday', 'T Last 30 days', 'F Last 28 days', 'C Custom range', '← Move the range back']),
    );
    await page.screenshot({ path: screenshotPath('dashboard-shortcuts') });
    // Inside the overlay the letters do nothing; Escape closes it.
    await page.keyboard.press('w');
    expect(new URL(page.url()).searchParams.get('period')).toBeNull();
    await page.keyboard.press('Escape');
    await expect.poll(() => help.isVisible()).toBe(false);
    await page.context().close();
  });

  it('chooses a custom range on a calendar, never a reversed one, keeping the toolbar on one row', async () => {
    const page = await dashboard('');
    const toolbar = page.locator('.dashboard-controls');
    const height = (await toolbar.boundingBox())?.height ?? 0;
    await page.keyboard.press('c');
    const calendar = page.getByRole('dialog', { name: 'Custom range' });
    await calendar.waitFor();
    // Days after today are not offered.
    expect(await calendar.locator('[data-day="2024-01-11"]').isDisabled()).toBe(true);
    await calendar.locator('[data-day="2024-01-09"]').click();
    // A day before the first starts the range again there.
    await calendar.locator('[data-day="2024-01-02"]').click();
    await calendar.locator('[data-day="2024-01-08"]').click();
    await page.screenshot({ path: screenshotPath('dashboard-calendar') });
    expect((await toolbar.boundingBox())?.height).toBe(height);
    await calendar.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/period=custom&from=2024-01-02&to=2024-01-08/);
    // erin on 2 Jan, and the three of 8 Jan.
    await expect.poll(() => visitors(page), { timeout: 15_000 }).toBe('4');
    await page.getByLabel('Compare').selectOption('year_over_year');
    await page.waitForURL(/compare=year_over_year/);
    expect((await toolbar.boundingBox())?.height).toBe(height);
    await page.context().close();
  });

  it('compares weekdays with weekdays when asked to match the day of week', async () => {
    const page = await dashboard('?period=custom&from=2024-01-09&to=2024-01-09&compare=previous_period');
    await page.getByLabel('Match day of week').check();
    await page.waitForURL(/match_day_of_week=true/);
    // Tue 9 Jan against the Tuesday before, 2 Jan, when erin came at 10:00 (not Mon 8 Jan).
    await expect.poll(() => hover(page, 10, 24), { timeout: 15_000 }).toContain('Jan 2, 10:00 1 Change');
    await page.locator('[data-metric="visitors"]').hover();
    await expect.poll(() => page.locator('[data-metric="visitors"] .stat-previous').textContent()).toBe('Previous period: 1');
    await page.screenshot({ path: screenshotPath('dashboard-top-stat-compared'), clip: { x: 0, y: 0, width: 1280, height: 320 } });
    await page.context().close();
  });

  it('marks notes on the graph, which editors add and viewers only read', async () => {
    const path = `/api/v1/sites/${account.domain}/annotations`;
    const added = await fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/json' },
      body: JSON.stringify({ date: '2024-01-08', note: 'Pricing page launched' }),
    });
    expect(added.status).toBe(201);
    const page = await dashboard('?period=custom&from=2024-01-07&to=2024-01-09&interval=day');
    await expect.poll(() => page.locator('.graph-plot').getAttribute('data-annotations'), { timeout: 15_000 }).toBe('1');
    expect(await hover(page, 1, 3)).toContain('Pricing page launched');
    await page.getByRole('button', { name: 'Annotations' }).click();
    const dialog = page.getByRole('dialog', { name: 'Annotations' });
    const form = dialog.getByRole('form', { name: 'Add an annotation' });
    await form.getByLabel('Day').fill('2024-01-09');
    await form.getByLabel('Note').fill('Newsletter sent');
    await form.getByRole('button', { name: 'Add' }).click();
    await dialog.getByText('Newsletter sent').waitFor();
    await page.screenshot({ path: screenshotPath('dashboard-annotations') });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.locator('.graph-plot').getAttribute('data-annotations'), { timeout: 15_000 }).toBe('2');
    expect(await hover(page, 2, 3)).toContain('Newsletter sent');
    await page.context().close();

    const viewer = await createAccount(t.app);
    await grantTeamRole(t.app.meta.db, account.teamId, viewer.userId, 'viewer', t.app.clock.now());
    const viewerPage = await dashboard('?period=custom&from=2024-01-07&to=2024-01-09&interval=day', { userId: viewer.userId });
    await expect.poll(() => viewerPage.locator('.graph-plot').getAttribute('data-annotations'), { timeout: 15_000 }).toBe('2');
    expect(await viewerPage.getByRole('button', { name: 'Annotations' }).count()).toBe(0);
    await viewerPage.context().close();
  });

  it('looks right in light, dark and on a phone', async () => {
    for (const [dark, phone] of [
      [false, false],
      [true, false],
      [false, true],
      [true, true],
    ] as const) {
      const page = await dashboard('?period=custom&from=2024-01-07&to=2024-01-09&interval=day&compare=previous_period', { dark, phone });
      await hover(page, 1, 3);
      await page.screenshot({ path: screenshotPath(`graph-${dark ? 'dark' : 'light'}-${phone ? 'phone' : 'desktop'}`), fullPage: phone });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone ? 375 : 1280);
      // The calendar opens inside the screen, over the page.
      await page.getByLabel('Date range').selectOption('custom');
      const calendar = page.getByRole('dialog', { name: 'Custom range' });
      await calendar.waitFor();
      const box = await calendar.boundingBox();
      expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= (phone ? 375 : 1280)).toBe(true);
      await page.screenshot({ path: screenshotPath(`calendar-${dark ? 'dark' : 'light'}-${phone ? 'phone' : 'desktop'}`) });
      await page.context().close();
    }
  });
});
