import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshotPath } from '../support/browser.js';
import { layoutShifts, recordLayoutShifts } from '../support/layoutShift.js';
import type { TestApp } from '../support/testApp.js';
import { signedInContext } from '../support/webSession.js';
import { REALISTIC_NOW, type RealisticSite, startRealisticDashboard } from './dashboardRealisticSite.js';

// The dashboard's layout on realistic data (goals, a custom property, a funnel): cards level,
// panels filling their rows, light and dark, desktop and phone.
describe('the dashboard layout', () => {
  let t: TestApp;
  let site: RealisticSite;
  let browser: Browser;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ t, site, browser, close } = await startRealisticDashboard());
  });
  afterAll(() => close?.());

  async function open(query: string, options: { dark?: boolean; phone?: boolean } = {}): Promise<Page> {
    const context = await signedInContext(browser, t, site.userId, { ...options, height: 1000 });
    const page = await context.newPage();
    await page.goto(`${t.url}/${site.domain}${query}`);
    return page;
  }
  /** Waits until the top stats, the graph and every panel (the map too) have their figures. */
  async function filled(page: Page) {
    const loading = '.stat-placeholder, .graph-skeleton, .panel-skeleton, [aria-busy="true"]';
    await page.locator('.graph-plot[data-points]:not([data-points="0"])').waitFor({ timeout: 20_000 });
    await page.locator('section[aria-label="Pages"] .panel-row').first().waitFor({ timeout: 20_000 });
    // The map loads as its panel nears the screen: a script's scroll, not the viewer's input.
    await page.evaluate(() => document.querySelector('section[aria-label="Locations"]')?.scrollIntoView({ block: 'center' }));
    await page.locator('.world-map path.has-data').first().waitFor({ timeout: 20_000 });
    await page.waitForFunction((selector) => document.querySelector(selector) === null, loading, { timeout: 20_000 });
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

  it('draws the whole world on the map, and each country with its flag', async () => {
    for (const options of [{}, { dark: true }, { phone: true }]) {
      const page = await open('', options);
      const locations = page.getByRole('region', { name: 'Locations' });
      await locations.scrollIntoViewIfNeeded();
      await locations.locator('path.has-data').first().waitFor({ timeout: 20_000 });
      // The drawing fills the map's box: no band left empty below the countries.
      const frame = await locations.locator('svg.world-map').boundingBox();
      const shapes = await locations.locator('svg.world-map').evaluate((svg) => {
        const box = (svg as SVGSVGElement).getBBox();
        return { top: box.y, bottom: box.y + box.height, height: (svg as SVGSVGElement).viewBox.baseVal.height };
      });
      expect(shapes.top).toBeGreaterThan(0);
      expect(shapes.height - shapes.bottom).toBeLessThan(12);
      const suffix = `${'dark' in options ? '-dark' : ''}${'phone' in options ? '-phone' : ''}`;
      await locations.screenshot({ path: screenshotPath(`dashboard-map${suffix}`) });
      expect(frame?.height).toBeGreaterThan(100);
      await locations.getByRole('tab', { name: 'Countries' }).click();
      const rows = locations.locator('.panel-row');
      await rows.first().waitFor({ timeout: 20_000 });
      expect(await rows.first().locator('.row-label').textContent()).toBe('United States');
      await expect
        .poll(() => locations.locator('.panel-row img.flag').evaluateAll((flags) => flags.map((flag) => (flag as HTMLImageElement).naturalWidth > 0)), {
          timeout: 10_000,
        })
        .toEqual(Array.from({ length: await rows.count() }, () => true));
      await locations.screenshot({ path: screenshotPath(`dashboard-countries${suffix}`) });
      await page.context().close();
    }
  });

  it('names regions and cities as people write them, one spelling for one place', async () => {
    const page = await open(`?filters=${encodeURIComponent(JSON.stringify([['is', 'visit:country', ['JP', 'BR']]]))}`);
    const locations = page.getByRole('region', { name: 'Locations' });
    const names = () => locations.locator('.panel-row .row-label').allTextContents();
    await locations.getByRole('tab', { name: 'Regions' }).click();
    await expect.poll(names, { timeout: 20_000 }).toEqual(['São Paulo, Brazil', 'Tokyo, Japan']);
    await locations.getByRole('tab', { name: 'Cities' }).click();
    await expect.poll(names, { timeout: 20_000 }).toEqual(['São Paulo', 'Tokyo']);
    await page.context().close();
  });

  it('does not move what is on the screen while the dashboard loads: desktop, phone, and with a comparison', async () => {
    for (const [query, options] of [
      ['', {}],
      ['', { phone: true }],
      ['?compare=previous_period&match_day_of_week=true', {}],
      ['?compare=previous_period', { phone: true }],
    ] as const) {
      const context = await signedInContext(browser, t, site.userId, { ...options, height: 1000 });
      if ('phone' in options) await context.pages()[0]?.setViewportSize({ width: 390, height: 844 });
      const page = await context.newPage();
      if ('phone' in options) await page.setViewportSize({ width: 390, height: 844 });
      await page.clock.install({ time: REALISTIC_NOW });
      await recordLayoutShifts(page);
      await page.goto(`${t.url}/${site.domain}${query}`);
      await filled(page);
      const shifts = await layoutShifts(page);
      expect(shifts.total, `${query} ${JSON.stringify(options)}: ${JSON.stringify(shifts.entries, null, 1)}`).toBeLessThanOrEqual(0.01);
      await context.close();
    }
  });

  it('keeps the toolbar one height when a comparison adds "Match day of week"', async () => {
    for (const options of [{}, { phone: true }]) {
      const context = await signedInContext(browser, t, site.userId, { ...options, height: 1000 });
      const page = await context.newPage();
      if ('phone' in options) await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${t.url}/${site.domain}`);
      await page.locator('section[aria-label="Pages"] .panel-row').first().waitFor({ timeout: 20_000 });
      const before = await box(page, '.dashboard-bar');
      const stats = await box(page, '.top-stats');
      await page.getByLabel('Compare').selectOption('previous_period');
      await page.getByLabel('Match day of week').waitFor();
      expect((await box(page, '.dashboard-bar')).height).toBe(before.height);
      expect((await box(page, '.top-stats')).y).toBe(stats.y);
      await page.screenshot({ path: screenshotPath(`dashboard-toolbar-compare${'phone' in options ? '-phone' : ''}`) });
      await context.close();
    }
  });

  describe('on a 390 px phone', () => {
    async function phone(path: string, options: { dark?: boolean } = {}): Promise<Page> {
      const context = await signedInContext(browser, t, site.userId, { ...options, phone: true });
      const page = await context.newPage();
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${t.url}/${site.domain}${path}`);
      return page;
    }
    /** Whether an element can be brought on screen (scrolling sideways if it must) and read there, whole. */
    async function reachable(locator: ReturnType<Page['locator']>): Promise<boolean> {
      await locator.scrollIntoViewIfNeeded();
      const place = await locator.boundingBox();
      return place !== null && place.width > 0 && place.x >= 0 && place.x + place.width <= 390;
    }

    it("keeps the goals panel's conversion rate and revenue, with a readable name column", async () => {
      for (const options of [{}, { dark: true }]) {
        const page = await phone('', options);
        const goals = page.getByRole('region', { name: 'Behaviours' });
        const purchase = goals.locator('.panel-row[data-value="Purchase"]');
        await purchase.waitFor({ timeout: 20_000 });
        expect(await goals.locator('.panel-columns .num').allTextContents()).toEqual(['Visitors', 'Events', 'CR', 'Revenue']);
        for (const heading of ['CR', 'Revenue']) expect(await reachable(goals.locator('.panel-columns .num', { hasText: heading })), heading).toBe(true);
        expect(await reachable(purchase.locator('.num').last())).toBe(true);
        expect(await purchase.locator('.num').last().textContent()).toBe('€2,174.00');
        expect((await box(page, 'section[aria-label="Behaviours"] .panel-row[data-value="Purchase"] .row-label')).width).toBeGreaterThanOrEqual(90);
        // The list scrolls inside its card; the page itself never scrolls sideways.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await goals.locator('.panel-list').evaluate((list) => list.scrollTo({ left: 0 }));
        await goals.scrollIntoViewIfNeeded();
        await goals.screenshot({ path: screenshotPath(`dashboard-goals-phone${'dark' in options ? '-dark' : ''}`) });
        await page.context().close();
      }
    });

    it('shows every metric of a details view, the rest reachable by a sideways scroll', async () => {
      const page = await phone('');
      const pages = page.getByRole('region', { name: 'Pages' });
      await pages.locator('.panel-row').first().waitFor({ timeout: 20_000 });
      await pages.getByRole('button', { name: 'Details' }).click();
      const dialog = page.getByRole('dialog');
      const scroller = dialog.locator('.details-scroll');
      await dialog.locator('tbody tr').first().waitFor({ timeout: 20_000 });
      await page.screenshot({ path: screenshotPath('dashboard-details-phone') });
      const headings = await dialog.locator('thead th.num').allTextContents();
      expect(headings).toHaveLength(5);
      // The name leaves room for the first metrics on screen; the rest are a scroll away, and the cut edge says so.
      const [visitors, second] = await Promise.all([0, 1].map((i) => dialog.locator('thead th.num').nth(i).boundingBox()));
      expect(visitors && second && second.x + second.width <= 390).toBe(true);
      expect(await scroller.evaluate((list) => list.hasAttribute('data-more-after'))).toBe(true);
      expect((await dialog.locator('tbody .row-label').nth(2).boundingBox())?.width).toBeGreaterThanOrEqual(90);
      for (const heading of headings) expect(await reachable(dialog.locator('thead th.num', { hasText: heading.trim() })), heading).toBe(true);
      expect(await reachable(dialog.locator('tbody tr').first().locator('td').last())).toBe(true);
      await page.context().close();
    });

    it('shows that the settings tabs scroll, with the chosen one in view', async () => {
      for (const section of ['properties', 'export']) {
        const page = await phone(`/settings/${section}`);
        const tabs = page.locator('.settings-nav ul');
        const current = page.locator('.settings-nav a[aria-current="page"]');
        await current.waitFor({ timeout: 20_000 });
        expect(await tabs.evaluate((list) => list.scrollWidth > list.clientWidth)).toBe(true);
        // A fade at each edge the strip is cut at.
        await expect
          .poll(() => tabs.evaluate((list) => [list.hasAttribute('data-more-before'), list.hasAttribute('data-more-after')]))
          .toEqual(section === 'export' ? [true, false] : [true, true]);
        const strip = await tabs.boundingBox();
        const tab = await current.boundingBox();
        // Whole within the strip (to a rounding pixel).
        expect(tab && strip && tab.x >= strip.x && tab.x + tab.width <= strip.x + strip.width + 1).toBe(true);
        await page.screenshot({ path: screenshotPath(`settings-tabs-phone-${section}`), clip: { x: 0, y: 0, width: 390, height: 300 } });
        await page.context().close();
      }
    });
  });
});
