import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SENT_WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS } from '../../src/contracts/webhookEventTypes.js';
import { launchBrowser, screenshotPath } from '../support/browser.js';
import { ManualClock } from '../support/manualClock.js';
import { type Account, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { signedInContext } from '../support/webSession.js';
import { call } from '../webhooks/support/api.js';

// The Webhooks screen offers the event types this install sends, as the one list says, and the
// Traffic notices screen promises only webhooks that list sends; a refused URL is said in the
// screen's words under the field, which keeps what was typed.
describe('webhook event types on the settings screens', () => {
  let t: TestApp;
  let account: Account;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(Date.parse('2026-03-01T12:00:00Z')) });
    await t.app.webhooks.stop();
    account = await createAccount(t.app);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const signedIn = async (): Promise<Page> => (await signedInContext(browser, t, account.userId)).newPage();

  const offered = (page: Page) => page.locator('fieldset.checks label.check code').allTextContents();

  it('offers exactly the sent types, each with its line and none said to be unsent', async () => {
    const page = await signedIn();
    await page.goto(`${t.url}/settings/team/webhooks`);
    await page.locator('fieldset.checks label.check').first().waitFor();
    expect(await offered(page)).toEqual(SENT_WEBHOOK_EVENT_TYPES);
    for (const type of SENT_WEBHOOK_EVENT_TYPES) {
      await page.locator('label.check', { hasText: type }).getByText(WEBHOOK_EVENTS[type].description).waitFor();
    }
    expect(await page.locator('fieldset.checks').textContent()).not.toMatch(/not sent/i);
    await page.screenshot({ path: screenshotPath('settings-webhook-types'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: screenshotPath('settings-webhook-types-dark'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: screenshotPath('settings-webhook-types-phone'), fullPage: true });
    await page.context().close();
  });

  it('says which of a webhook’s subscribed types are never sent', async () => {
    const created = await call(t.url, account.key, 'POST', '/api/v1/webhooks', {
      url: 'https://hooks.example.com/svc',
      event_types: ['goal.converted', 'site.created', 'usage.over_limit'],
    });
    expect(created.status).toBe(201);
    const page = await signedIn();
    await page.goto(`${t.url}/settings/team/webhooks`);
    const hook = page.locator('li.webhook', { hasText: 'https://hooks.example.com/svc' });
    await hook.waitFor();
    expect(await hook.getByText(/^goal\.converted/).textContent()).toBe('goal.converted (never sent), site.created, usage.over_limit (never sent)');
    await page.screenshot({ path: screenshotPath('settings-webhook-never-sent'), fullPage: true });
    await call(t.url, account.key, 'DELETE', `/api/v1/webhooks/${created.body.id}`);
    await page.context().close();
  });

  it('promises traffic webhooks on Traffic notices only for types the Webhooks screen offers', async () => {
    const page = await signedIn();
    await page.goto(`${t.url}/${account.domain}/settings/traffic-notices`);
    const promises = page.locator('p', { hasText: 'Webhooks subscribed to' });
    await promises.first().waitFor();
    const promised = await promises.locator('code').allTextContents();
    expect(promised).toEqual(['traffic.spike', 'traffic.drop']);
    await page.goto(`${t.url}/${account.domain}/settings/webhooks`);
    await page.locator('fieldset.checks label.check').first().waitFor();
    const types = await offered(page);
    for (const type of promised) expect(types).toContain(type);
    await page.context().close();
  });

  it('says a refused URL under the URL field in its own words and keeps it as typed', async () => {
    const page = await signedIn();
    await page.goto(`${t.url}/settings/team/webhooks`);
    const field = page.getByLabel('URL');
    for (const [typed, sentence] of [
      [
        'hooks.example.com/svc',
        'The webhook URL "hooks.example.com/svc" is not a whole address: write it with https:// in front, such as https://example.com/hooks/svc.',
      ],
      [
        'http://hooks.example.com/svc',
        'The webhook URL "http://hooks.example.com/svc" must start with https:// (plain http:// only for localhost, 127.0.0.1 and [::1]).',
      ],
      ['', 'Enter the webhook URL: the https address that receives the deliveries, such as https://example.com/hooks/svc.'],
    ] as const) {
      await field.fill(typed);
      await page.getByRole('button', { name: 'Add webhook' }).click();
      await expect.poll(() => page.locator('#webhook-url-error').textContent()).toBe(sentence);
      expect(await field.inputValue()).toBe(typed);
      expect(await field.getAttribute('aria-invalid')).toBe('true');
    }
    await field.fill('hooks.example.com/svc');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.locator('#webhook-url-error').waitFor();
    await page.screenshot({ path: screenshotPath('settings-webhook-url-refused'), fullPage: true });
    expect(await page.getByText('No webhooks yet.').count()).toBe(1);
    await page.context().close();
  });
});
