import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshotPath } from '../support/browser.js';
import { type Account, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { signedInContext } from '../support/webSession.js';

// Site settings › Email reports and › Traffic notices in a real browser, on a server without
// SMTP_URL, so both screens must say that nothing is sent and what to do (docs/settings.md).
describe('email reports and traffic notices settings', () => {
  let t: TestApp;
  let account: Account;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestApp();
    account = await createAccount(t.app, { timezone: 'Europe/Berlin' });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signedIn(options: { dark?: boolean; phone?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
    const context = await signedInContext(browser, t, account.userId, options);
    return { context, page: await context.newPage() };
  }

  const settingsUrl = (section: string) => `${t.url}/${account.domain}/settings/${section}`;
  const recipients = () =>
    t.app.meta.db.selectFrom('email_recipients').select(['topic', 'email']).where('site_id', '=', account.siteId).orderBy('topic').orderBy('email').execute();

  it('adds and removes report recipients, refusing what is not an address, and says that mail is not set up', async () => {
    const { context, page } = await signedIn();
    await page.goto(settingsUrl('email-reports'));
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Mail is not set up on this server, so no report is sent.');
    expect(await page.getByRole('status').textContent()).toContain('SMTP_URL');
    const weekly = page.getByRole('region', { name: 'Weekly report' });
    await weekly.getByLabel('Email address').fill('not an address');
    await weekly.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => weekly.getByRole('alert').textContent()).toBe('"not an address" is not an email address.');
    await weekly.getByLabel('Email address').fill('Team@Example.com');
    await weekly.getByRole('button', { name: 'Add' }).click();
    await weekly.getByRole('listitem').filter({ hasText: 'team@example.com' }).waitFor();
    const monthly = page.getByRole('region', { name: 'Monthly report' });
    for (const email of ['boss@example.com', 'finance@example.com']) {
      await monthly.getByLabel('Email address').fill(email);
      await monthly.getByRole('button', { name: 'Add' }).click();
      await monthly.getByRole('listitem').filter({ hasText: email }).waitFor();
    }
    await monthly.getByRole('listitem').filter({ hasText: 'finance@example.com' }).getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => monthly.getByRole('listitem').count()).toBe(1);
    expect(await recipients()).toEqual([
      { topic: 'monthly', email: 'boss@example.com' },
      { topic: 'weekly', email: 'team@example.com' },
    ]);
    await context.close();
  });

  it('sets a spike threshold and a drop threshold with their recipients, and turns one off', async () => {
    const { context, page } = await signedIn();
    await page.goto(settingsUrl('traffic-notices'));
    await expect.poll(() => page.getByRole('status').textContent()).toContain('so no notice is sent');
    const spike = page.getByRole('region', { name: 'Traffic spike' });
    await spike.getByLabel('Current visitors at or above').fill('25');
    await spike.getByRole('button', { name: 'Turn on' }).click();
    await spike.getByRole('button', { name: 'Turn off' }).waitFor();
    await spike.getByLabel('Email address').fill('oncall@example.com');
    await spike.getByRole('button', { name: 'Add' }).click();
    await spike.getByRole('listitem').filter({ hasText: 'oncall@example.com' }).waitFor();
    const drop = page.getByRole('region', { name: 'Traffic drop' });
    await drop.getByLabel('Visitors in 12 hours below').fill('0');
    await drop.getByRole('button', { name: 'Turn on' }).click();
    await expect.poll(() => drop.getByRole('alert').first().textContent()).toBe('Field "threshold" must be at least 1.');
    await drop.getByLabel('Visitors in 12 hours below').fill('40');
    await drop.getByRole('button', { name: 'Turn on' }).click();
    await drop.getByRole('button', { name: 'Turn off' }).waitFor();
    const thresholds = () =>
      t.app.meta.db.selectFrom('traffic_thresholds').select(['kind', 'threshold']).where('site_id', '=', account.siteId).orderBy('kind').execute();
    expect(await thresholds()).toEqual([
      { kind: 'drop', threshold: 40 },
      { kind: 'spike', threshold: 25 },
    ]);
    await page.reload();
    // inputValue does not wait for the saved settings to be read back into the form.
    await expect.poll(() => page.getByLabel('Current visitors at or above').inputValue()).toBe('25');
    await page.getByRole('region', { name: 'Traffic drop' }).getByRole('button', { name: 'Turn off' }).click();
    await expect.poll(thresholds).toEqual([{ kind: 'spike', threshold: 25 }]);
    await context.close();
  });

  it('saves screenshots of both sections, light and dark, desktop and phone', async () => {
    for (const [options, suffix] of [
      [{}, ''],
      [{ dark: true }, '-dark'],
      [{ phone: true }, '-phone'],
    ] as const) {
      const { context, page } = await signedIn(options);
      for (const section of ['email-reports', 'traffic-notices']) {
        await page.goto(settingsUrl(section));
        await page.getByRole('status').waitFor();
        await page.waitForLoadState('networkidle');
        await page.screenshot({ path: screenshotPath(`settings-${section}${suffix}`), fullPage: true });
        if ('phone' in options) expect(await page.evaluate(() => document.documentElement.scrollWidth), section).toBeLessThanOrEqual(375);
      }
      await context.close();
    }
  });
});
