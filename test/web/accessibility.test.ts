import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmallSite } from '../query/smallSite.js';
import { seriousViolations } from '../support/axe.js';
import { launchBrowser } from '../support/browser.js';
import type { Account, TestApp } from '../support/testApp.js';
import { signedInContext } from '../support/webSession.js';

// The signed-in screens in Chromium, light and dark, checked by axe-core: no serious or critical
// accessibility violation (missing names, contrast, nested controls…) may come back.
describe('accessibility', () => {
  let t: TestApp;
  let account: Account;
  let browser: Browser;

  beforeAll(async () => {
    ({ t, account } = await startSmallSite());
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const screens: { name: string; path: () => string; ready: string }[] = [
    { name: 'sites list', path: () => '/sites', ready: 'svg.sparkline' },
    // A day against the day before, so the top stats show their changes; the selected card (visit duration) went up, in green on its tint.
    {
      name: 'dashboard',
      path: () => `/${account.domain}?period=custom&from=2024-01-09&to=2024-01-09&compare=previous_period&metric=visit_duration`,
      ready: '.panel-row',
    },
    { name: 'site settings', path: () => `/${account.domain}/settings/general`, ready: 'form' },
    { name: 'team members', path: () => '/settings/team/members', ready: '.settings-list li' },
    { name: 'account', path: () => '/settings/account', ready: 'form' },
  ];

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`finds no serious violation on any screen (${colorScheme})`, async () => {
      // The page's policy forbids injected scripts; axe is the test's own, not the page's.
      const context = await signedInContext(browser, t, account.userId, { dark: colorScheme === 'dark', bypassCSP: true });
      const page = await context.newPage();
      const found: string[] = [];
      for (const screen of screens) {
        await page.goto(`${t.url}${screen.path()}`);
        await page.locator(screen.ready).first().waitFor({ timeout: 20_000 });
        // The dashboard's map draws once its panel nears the screen and its chunk and numbers are in.
        if (screen.name === 'dashboard') {
          await page.getByRole('region', { name: 'Locations' }).scrollIntoViewIfNeeded();
          await page.locator('path.has-data').first().waitFor({ timeout: 20_000 });
        }
        found.push(...(await seriousViolations(page)).map((line) => `${screen.name}: ${line}`));
      }
      await context.close();
      expect(found).toEqual([]);
    });
  }
});
