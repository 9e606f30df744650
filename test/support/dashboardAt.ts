import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser.js';
import { type FixtureEvent, insertEvents } from './eventFixtures.js';
import { ManualClock } from './manualClock.js';
import { type Account, createAccount, startTestApp, type TestApp } from './testApp.js';
import { signedInContext } from './webSession.js';

/**
 * For a browser test file: the service with its clock standing at `now`, one account (time zone
 * UTC) holding `events`, and Chromium, started before the file's tests and closed after them.
 * `open` shows a view of the account's dashboard to its owner, the browser's clock at `now` too.
 */
export function dashboardAt(now: string, events: FixtureEvent[]) {
  let t: TestApp | undefined;
  let account: Account | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(Date.parse(now)) });
    account = await createAccount(t.app);
    await insertEvents(t.app, account.siteId, events);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  const started = () => {
    if (!t || !account || !browser) throw new Error('The service is not started: call dashboardAt in a describe block.');
    return { t, account, browser };
  };
  return {
    started,
    async open(search: string, options: { dark?: boolean; phone?: boolean } = {}): Promise<Page> {
      const { t, account, browser } = started();
      const context = await signedInContext(browser, t, account.userId, options);
      const page = await context.newPage();
      await page.clock.install({ time: now });
      await page.goto(`${t.url}/${account.domain}${search}`);
      return page;
    },
  };
}

/**
 * Moves the pointer over the graph's bucket `i` of `count` and reads the tooltip. A line's first
 * and last points sit on the plot's edges, bars half a bucket inside them. The graph is drawn
 * again when its interval settles (the range's own first, then the URL's), so a plot that went
 * away under the pointer, or was between two drawings when measured, is found again.
 */
export async function graphTooltip(page: Page, i: number, count: number, shape: 'line' | 'bars' = 'line'): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await tooltipOnce(page, i, count, shape);
    } catch (error) {
      if (attempt === 3 || !/not attached|not drawn/.test(String(error))) throw error;
    }
  }
}

async function tooltipOnce(page: Page, i: number, count: number, shape: 'line' | 'bars'): Promise<string> {
  const over = page.locator(`.graph-plot[data-points="${count}"] .u-over`);
  await over.waitFor({ timeout: 15_000 });
  await over.scrollIntoViewIfNeeded();
  const box = await over.boundingBox();
  if (!box) throw new Error('The graph is not drawn.');
  // A pixel inside the plot's edges, where a line's first and last points sit.
  const x = shape === 'bars' ? (box.width * (i + 0.5)) / count : count === 1 ? box.width / 2 : 2 + ((box.width - 4) * i) / (count - 1);
  await page.mouse.move(box.x + x - 3, box.y + box.height / 2);
  await page.mouse.move(box.x + x, box.y + box.height / 2);
  const tooltip = page.getByRole('tooltip');
  await tooltip.waitFor();
  return (await tooltip.locator('span').allTextContents()).join(' ');
}
