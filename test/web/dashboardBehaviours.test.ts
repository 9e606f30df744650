import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCustomProp } from '../../src/stores/meta/customProps.js';
import { seriousViolations } from '../support/axe.js';
import { screenshotPath } from '../support/browser.js';
import { addGoal, type FixtureEvent, insertEvents } from '../support/eventFixtures.js';
import { bearer, createAccount, type TestApp } from '../support/testApp.js';
import { signedInContext, signedInHeaders } from '../support/webSession.js';
import { REALISTIC_NOW, type RealisticSite, startRealisticDashboard } from './dashboardRealisticSite.js';

// The behaviours card (docs/dashboard.md "Panels"): goals, properties and funnels as tabs of one
// card, on the realistic site (test/web/dashboardRealisticSite.ts) with two more properties:
// `author` on blog pageviews, which no goal's event carries, and `url` on outbound link clicks.
const OUTBOUND = 'Outbound Link: Click';
const signup = [['is', 'event:goal', ['Signup']]];

/** Blog readers of the last 20 days, each on an article by one of two authors, some of whom follow a link out. */
function readers(): FixtureEvent[] {
  const day = 86_400_000;
  return Array.from({ length: 60 }, (_, i) => {
    const at = REALISTIC_NOW - (1 + (i % 20)) * day - (i % 7) * 3_600_000;
    const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
    const visitor = `reader-${i}`;
    const read: FixtureEvent = { visitor, at: stamp(at), page: '/blog/cookieless-analytics', props: { author: i % 3 ? 'Ada' : 'Grace' }, country: 'DE' };
    const url = i % 2 ? 'https://github.com/example/tracker' : 'https://news.ycombinator.com/item?id=1';
    return i % 4 === 3 ? [read] : [read, { visitor, at: stamp(at + 60_000), name: OUTBOUND, page: '/blog/cookieless-analytics', props: { url } }];
  }).flat();
}

/** A rate as the dashboard writes it (one decimal, docs/dashboard.md): the engine's figure rounded. */
function expectRate(text: string | null, rate: number): void {
  expect(text).toMatch(/^(0\.0\d|\d+(\.\d)?)%$/);
  expect(Math.abs(Number.parseFloat(text ?? '') - rate)).toBeLessThanOrEqual(0.05 + 1e-9);
}

describe('the behaviours card', () => {
  let t: TestApp;
  let site: RealisticSite;
  let browser: Browser;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ t, site, browser, close } = await startRealisticDashboard());
    const siteId = (await t.app.meta.db.selectFrom('sites').select('id').where('domain', '=', site.domain).executeTakeFirstOrThrow()).id;
    for (const prop of ['author', 'url']) await addCustomProp(t.app.meta.db, siteId, prop, t.app.clock.now());
    await addGoal(t.app, siteId, { eventName: OUTBOUND });
    await insertEvents(t.app, siteId, readers());
  });
  afterAll(() => close?.());

  async function open(
    filters: unknown[] | null,
    options: { dark?: boolean; phone?: boolean; bypassCSP?: boolean } = {},
  ): Promise<{ page: Page; card: Locator }> {
    const context = await signedInContext(browser, t, site.userId, { ...options, height: 1000 });
    const page = await context.newPage();
    await page.goto(`${t.url}/${site.domain}${filters ? `?filters=${encodeURIComponent(JSON.stringify(filters))}` : ''}`);
    const card = page.getByRole('region', { name: 'Behaviours' });
    await card.waitFor({ timeout: 20_000 });
    return { page, card };
  }
  const settled = (card: Locator) => expect.poll(() => card.locator('.panel-skeleton').count(), { timeout: 20_000 }).toBe(0);
  const headings = (card: Locator) => card.locator('.panel-columns > span').allTextContents();

  /** The funnel report the dashboard's own route answers for the view (the default 28 days) and filters. */
  async function funnelReport(filters: unknown[]) {
    const { cookie, 'x-csrf-token': csrf } = await signedInHeaders(t.app, site.userId);
    const response = await fetch(`${t.url}/app/api/sites/${site.domain}/funnel`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' },
      body: JSON.stringify({ funnel: 'Pricing to purchase', date_range: '28d', filters }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { entering_visitors: number; steps: { visitors: number; dropoff: number; conversion_rate: string }[] };
  }
  async function propertyRows(prop: string, goal: string) {
    const response = await fetch(`${t.url}/api/v2/query`, {
      method: 'POST',
      headers: { ...bearer(site.key), 'content-type': 'application/json' },
      body: JSON.stringify({
        site_id: site.domain,
        metrics: ['visitors', 'events', 'conversion_rate'],
        dimensions: [`event:props:${prop}`],
        date_range: '28d',
        filters: [
          ['is', 'event:goal', [goal]],
          ['is_not', `event:props:${prop}`, ['(none)']],
        ],
      }),
    });
    return ((await response.json()).results as { dimensions: string[]; metrics: number[] }[]).map((row) => [row.dimensions[0], ...row.metrics]);
  }

  it('puts goals, properties and funnels in one card, draws the funnel with a tooltip per step and remembers the tab', async () => {
    for (const options of [{}, { dark: true }, { phone: true }]) {
      const { page, card } = await open(null, options);
      const suffix = `${'dark' in options ? '-dark' : ''}${'phone' in options ? '-phone' : ''}`;
      expect(await card.getByRole('tab').allTextContents()).toEqual(['Goals', 'Properties', 'Funnels']);
      await card.locator('.panel-row[data-value="Purchase"]').waitFor({ timeout: 20_000 });
      expect(await headings(card)).toEqual(['Goal', '', 'Visitors', 'Events', 'CR', 'Revenue']);
      expect(await card.locator('.panel-row[data-value="Purchase"] .num').last().textContent()).toMatch(/€/);
      await card.screenshot({ path: screenshotPath(`behaviours-goals${suffix}`) });

      await card.getByRole('tab', { name: 'Properties' }).click();
      await card.locator('.panel-row').first().waitFor({ timeout: 20_000 });
      expect(await card.getByRole('combobox').inputValue()).toBe('author');
      await card.getByRole('combobox').selectOption('plan');
      await card.locator('.panel-row[data-value="Starter"]').waitFor({ timeout: 20_000 });

      await card.getByRole('tab', { name: 'Funnels' }).click();
      const steps = card.locator('.funnel-step');
      await expect.poll(() => steps.count(), { timeout: 20_000 }).toBe(3);
      const report = await funnelReport([]);
      const first = report.steps[0]!.visitors;
      // Each bar is as tall as its visitors against the first step's, the previous step's losses drawn above it.
      for (const [i, step] of report.steps.entries()) {
        const track = steps.nth(i).locator('.funnel-track');
        const reached = await track.evaluate((node) => Number(getComputedStyle(node).getPropertyValue('--reached')));
        const dropped = await track.evaluate((node) => Number(getComputedStyle(node).getPropertyValue('--dropped')));
        expect(reached).toBeCloseTo(step.visitors / first, 5);
        expect(dropped).toBeCloseTo(step.dropoff / first, 5);
      }
      expect(report.steps[1]!.dropoff).toBeGreaterThan(0);
      const second = steps.nth(1).getByRole('button');
      // A phone has no pointer to rest on the bar: a tap shows the figures.
      if ('phone' in options) await second.click();
      else await second.hover();
      const tooltip = card.getByRole('tooltip');
      await tooltip.waitFor();
      const step = report.steps[1]!;
      const tip = (await tooltip.textContent()) ?? '';
      expect(tip).toContain('2. Signup');
      expect(tip).toContain(`Visitors${step.visitors.toLocaleString('en-US')}`);
      expect(Number(/Conversion rate([\d.]+)%/.exec(tip)?.[1])).toBeCloseTo(Number(step.conversion_rate), 1);
      expect(tip).toContain(`Dropped off${step.dropoff.toLocaleString('en-US')} (`);
      expect(await second.getAttribute('aria-describedby')).toBe(await tooltip.getAttribute('id'));
      if ('phone' in options) {
        // Nothing wider than the phone: no sideways scrolling, the tooltip inside the screen.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
        const box = (await tooltip.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(375);
      }
      // On a phone the tooltip hangs below the step, over what follows the card: the whole page shows it.
      if ('phone' in options) await page.screenshot({ path: screenshotPath(`behaviours-funnel${suffix}`), fullPage: true });
      else await card.screenshot({ path: screenshotPath(`behaviours-funnel${suffix}`) });
      await page.mouse.move(0, 0);

      // The card opens on the tab last chosen.
      await page.reload();
      await expect.poll(() => card.getByRole('tab', { name: 'Funnels' }).getAttribute('aria-selected'), { timeout: 20_000 }).toBe('true');
      await page.context().close();
    }
  });

  it('gives the funnel chart names, contrast and keys axe finds nothing serious in, light and dark', async () => {
    for (const dark of [false, true]) {
      // The page's policy forbids injected scripts; axe is the test's own, not the page's.
      const { page, card } = await open(null, { dark, bypassCSP: true });
      await card.getByRole('tab', { name: 'Funnels' }).click();
      await card.locator('.funnel-step').first().waitFor({ timeout: 20_000 });
      // The keyboard reaches every step; its figures show on focus and Escape hides them.
      await card.locator('.funnel-step-button').first().focus();
      await page.keyboard.press('Tab');
      await expect.poll(() => card.getByRole('tooltip').textContent()).toContain('2. Signup');
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await expect.poll(() => card.getByRole('tooltip').count()).toBe(0);
      await page.context().close();
    }
  });

  it('counts the funnel over the visits that converted under a goal filter', async () => {
    const { page, card } = await open(signup);
    await card.getByRole('tab', { name: 'Funnels' }).click();
    await settled(card);
    const report = await funnelReport(signup);
    // Of the visits that signed up, those that had viewed the pricing page first enter; all of them signed up.
    expect(report.entering_visitors).toBeGreaterThan(20);
    expect(report.steps[1]!.visitors).toBe(report.entering_visitors);
    expect(await card.getByText('Nobody entered this funnel').count()).toBe(0);
    const counts = await card.locator('.funnel-count').allTextContents();
    expect(counts).toEqual(report.steps.map((s) => `${s.visitors} visitors`));
    await card.screenshot({ path: screenshotPath('behaviours-funnel-goal-filter') });
    await page.context().close();
  });

  it("opens properties under a goal filter on the goal's own properties, with conversions and the rate among all visitors", async () => {
    for (const options of [{}, { dark: true }, { phone: true }]) {
      const { page, card } = await open(signup, options);
      await card.getByRole('tab', { name: 'Properties' }).click();
      await card.locator('.panel-row').first().waitFor({ timeout: 20_000 });
      const chooser = card.getByRole('combobox');
      // author is the site's first property, but no sign-up carries it.
      expect(await chooser.inputValue()).toBe('plan');
      expect(await chooser.locator('option').allTextContents()).toEqual(['plan']);
      expect(await headings(card)).toEqual(['plan', '', 'Conversions', 'Events', 'CR']);
      const expected = await propertyRows('plan', 'Signup');
      expect(expected.length).toBe(3);
      for (const [value, visitors, , rate] of expected) {
        const row = card.locator(`.panel-row[data-value="${value}"] .num`);
        expect(await row.first().textContent()).toBe(String(visitors));
        expectRate(await row.nth(2).textContent(), Number(rate));
        expect(rate).toBeLessThan(100);
      }
      const suffix = `${'dark' in options ? '-dark' : ''}${'phone' in options ? '-phone' : ''}`;
      await card.screenshot({ path: screenshotPath(`behaviours-properties-goal-filter${suffix}`) });
      await page.context().close();
    }

    const { page, card } = await open([['is', 'event:goal', [OUTBOUND]]]);
    await card.getByRole('tab', { name: 'Properties' }).click();
    await card.locator('.panel-row').first().waitFor({ timeout: 20_000 });
    expect(await card.getByRole('combobox').inputValue()).toBe('url');
    const urls = await propertyRows('url', OUTBOUND);
    expect(urls.map(([value]) => value).sort()).toEqual(['https://github.com/example/tracker', 'https://news.ycombinator.com/item?id=1']);
    for (const [value, , , rate] of urls) {
      expect(rate).toBeLessThan(5);
      expectRate(await card.locator(`.panel-row[data-value="${value}"] .num`).nth(2).textContent(), Number(rate));
    }
    await page.context().close();

    // A pageview goal's events carry no property here: the tab says so rather than list an empty one.
    const pricing = await open([['is', 'event:goal', ['Visit /pricing']]]);
    await pricing.card.getByRole('tab', { name: 'Properties' }).click();
    await pricing.card.getByText('This goal’s events carry none of the site’s properties in this period.').waitFor({ timeout: 20_000 });
    expect(await pricing.card.getByRole('combobox').count()).toBe(0);
    await pricing.page.context().close();
  });

  it('shows only the tabs the site has something for', async () => {
    const account = await createAccount(t.app);
    await addGoal(t.app, account.siteId, { eventName: 'Signup' });
    const context = await signedInContext(browser, t, account.userId);
    const page = await context.newPage();
    await page.goto(`${t.url}/${account.domain}`);
    const card = page.getByRole('region', { name: 'Behaviours' });
    await card.locator('.panel-columns').waitFor({ timeout: 20_000 });
    // One tab: no tab list, the goals' columns.
    expect(await card.getByRole('tab').count()).toBe(0);
    expect((await headings(card))[0]).toBe('Goal');
    await context.close();
  });
});
