import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantSiteGuest } from '../../src/stores/meta/guests.js';
import { startSmallSite } from '../query/smallSite.js';
import { launchBrowser, screenshotPath } from '../support/browser.js';
import { type Account, bearer, createAccount, type TestApp } from '../support/testApp.js';
import { signedInContext } from '../support/webSession.js';

// Settings screens that offer only what works and say what each choice means: guests listed once,
// and an events import without a Delete the server would refuse (webhook event types:
// test/web/webhookEventTypes.test.ts).
describe('settings screens', () => {
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

  async function signedIn(options: { dark?: boolean; phone?: boolean } = {}): Promise<Page> {
    const context = await signedInContext(browser, t, account.userId, options);
    return context.newPage();
  }

  it('lists an invited guest once, its Revoke in line with an accepted guest’s Remove', async () => {
    const guest = await createAccount(t.app);
    await grantSiteGuest(t.app.meta.db, account.siteId, guest.userId, 'viewer', t.app.clock.now());
    const page = await signedIn();
    await page.goto(`${t.url}/${account.domain}/settings/visibility`);
    await page.getByLabel('Email').fill('invited@example.org');
    await page.getByRole('button', { name: 'Invite guest' }).click();
    const rows = page.locator('.settings-list li', { hasText: 'invited@example.org' });
    await rows.getByRole('button', { name: 'Revoke' }).waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.textContent()).toMatch(/invitation expires/);
    expect(await page.getByText('Pending invitations').count()).toBe(0);
    const remove = await page.locator('.settings-list li', { hasText: '@example.com' }).getByRole('button', { name: 'Remove' }).boundingBox();
    const revoke = await rows.getByRole('button', { name: 'Revoke' }).boundingBox();
    expect(revoke && remove && Math.round(revoke.x + revoke.width)).toBe(remove && Math.round(remove.x + remove.width));
    for (const [name, options] of [
      ['settings-visibility', {}],
      ['settings-visibility-dark', { dark: true }],
      ['settings-visibility-phone', { phone: true }],
    ] as const) {
      const shot = name === 'settings-visibility' ? page : await signedIn(options);
      if (shot !== page) await shot.goto(`${t.url}/${account.domain}/settings/visibility`);
      await shot.locator('.settings-list li', { hasText: 'invited@example.org' }).waitFor();
      await shot.screenshot({ path: screenshotPath(name), fullPage: true });
      if (shot !== page) await shot.context().close();
    }
    await page.context().close();
  });

  it('offers no Delete on an events import, and says why', async () => {
    const line = JSON.stringify({
      timestamp: '2024-01-09T10:00:00Z',
      ip: '81.2.69.142',
      user_agent: 'Mozilla/5.0 Firefox/128.0',
      n: 'pageview',
      u: `https://${account.domain}/imported`,
    });
    const imported = await fetch(`${t.url}/api/v1/sites/${account.domain}/events/import`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/x-ndjson' },
      body: line,
    });
    expect(imported.status).toBe(200);
    const page = await signedIn();
    await page.goto(`${t.url}/${account.domain}/settings/imports`);
    const row = page.locator('.settings-list li').first();
    await row.getByText('cannot be taken out again by import').waitFor();
    expect(await row.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await page.screenshot({ path: screenshotPath('settings-imports-events'), fullPage: true });
    await page.context().close();
  });
});
