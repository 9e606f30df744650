import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantTeamRole } from '../../src/stores/meta/guests.js';
import { lockTeam } from '../../src/stores/meta/teams.js';
import { startSmallSite } from '../query/smallSite.js';
import { launchBrowser, screenshotPath } from '../support/browser.js';
import { collect } from '../support/collect.js';
import type { Account, TestApp } from '../support/testApp.js';
import { createAccount } from '../support/testApp.js';
import { signedInContext, signedInHeaders } from '../support/webSession.js';
import { csvRows, readZip } from '../support/zip.js';
import { type Receiver, startReceiver } from '../webhooks/support/receiver.js';

// The settings screens (docs/settings.md) in a real browser, on the real service and stores.
describe('settings screens', () => {
  let t: TestApp;
  let account: Account;
  let browser: Browser;
  let receiver: Receiver;

  beforeAll(async () => {
    ({ t, account } = await startSmallSite({ env: { TRUSTED_PROXIES: '127.0.0.1' } }));
    await t.app.webhooks.stop();
    browser = await launchBrowser();
    receiver = await startReceiver({ tls: false });
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await t?.close();
  });

  async function signedIn(userId: number, options: { dark?: boolean; phone?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
    const context = await signedInContext(browser, t, userId, options);
    return { context, page: await context.newPage() };
  }

  const settingsUrl = (section: string) => `${t.url}/${account.domain}/settings/${section}`;

  it('creates an API key, shows it once, and revoking it closes the API to it', async () => {
    const { context, page } = await signedIn(account.userId);
    await page.goto(`${t.url}/settings/team/api-keys`);
    await page.getByLabel('Name').fill('Reporting');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('shown-once').textContent()) ?? '';
    expect(key).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
    await page.screenshot({ path: screenshotPath('settings-api-keys'), fullPage: true });
    const use = () => fetch(`${t.url}/api/v1/sites`, { headers: { authorization: `Bearer ${key}` } });
    expect((await use()).status).toBe(200);
    const row = page.getByRole('row', { name: /Reporting/ });
    expect(await row.locator('td[data-label="Last used"]').textContent()).toBe('—');
    await page.reload();
    // The list tells when a key was last used.
    await expect.poll(() => row.locator('td[data-label="Last used"]').textContent()).not.toBe('—');
    expect(await page.getByTestId('shown-once').count()).toBe(0);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(async () => (await row.textContent()) ?? '').toContain('revoked');
    expect((await use()).status).toBe(401);
    await context.close();
  });

  const dashboardUrl = (from: string, to: string) => `${t.url}/${account.domain}?period=custom&from=${from}&to=${to}`;
  const topStat = (page: Page, metric: string) => page.locator(`[data-metric="${metric}"] .stat-value`);

  it('adds a goal that the dashboard lists at once', async () => {
    const { context, page } = await signedIn(account.userId);
    await page.goto(settingsUrl('goals'));
    await page.getByLabel('Pageview').check();
    await page.getByLabel('Page path').fill('/pricing');
    await page.getByRole('button', { name: 'Add goal' }).click();
    await page.locator('.settings-list strong', { hasText: 'Visit /pricing' }).waitFor();
    await page.screenshot({ path: screenshotPath('settings-goals'), fullPage: true });
    // The dashboard's behaviours card counts it among the goals: alice and bob visited /pricing on 8 January.
    await page.goto(dashboardUrl('2024-01-08', '2024-01-09'));
    const goals = page.getByRole('region', { name: 'Behaviours' });
    await goals.locator('.panel-row[data-value="Visit /pricing"]').waitFor({ timeout: 15_000 });
    expect(await goals.locator('.panel-row[data-value="Visit /pricing"] .num').first().textContent()).toBe('2');
    await context.close();
  });

  it("sets how long raw events are kept, with the server's sentence under the field for a bad value", async () => {
    const { context, page } = await signedIn(account.userId);
    await page.goto(settingsUrl('general'));
    await page.getByLabel('Keep raw events').selectOption('days');
    await page.getByLabel('Days kept').fill('10');
    await page.getByRole('button', { name: 'Save raw-event retention' }).click();
    await expect
      .poll(() => page.locator('#site-raw-days-error').textContent())
      .toBe('"raw_retention_days" must be a whole number of days from 30 to 3650, or null to keep raw events forever; got 10.');
    await page.getByLabel('Days kept').fill('90');
    await page.getByRole('button', { name: 'Save raw-event retention' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved: older raw events go after the next roll-up round.' }).waitFor();
    expect(
      (await t.app.meta.db.selectFrom('sites').select('raw_retention_days').where('id', '=', account.siteId).executeTakeFirstOrThrow()).raw_retention_days,
    ).toBe(90);
    await page.reload();
    expect(await page.getByLabel('Days kept').inputValue()).toBe('90');
    await page.getByLabel('Keep raw events').selectOption('forever');
    await page.getByRole('button', { name: 'Save raw-event retention' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved: raw events are kept.' }).waitFor();
    expect(
      (await t.app.meta.db.selectFrom('sites').select('raw_retention_days').where('id', '=', account.siteId).executeTakeFirstOrThrow()).raw_retention_days,
    ).toBeNull();
    await context.close();
  });

  it('puts bots back into reports, which changes the numbers', async () => {
    const visitors = async () => {
      const response = await fetch(`${t.url}/api/v2/query`, {
        method: 'POST',
        headers: { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ site_id: account.domain, metrics: ['visitors'], date_range: ['2024-01-08', '2024-01-08'] }),
      });
      return (await response.json()).results[0].metrics[0];
    };
    expect(await visitors()).toBe(3);
    const { context, page } = await signedIn(account.userId);
    await page.goto(dashboardUrl('2024-01-08', '2024-01-08'));
    await expect.poll(() => topStat(page, 'visitors').textContent(), { timeout: 15_000 }).toBe('3');
    await page.goto(settingsUrl('shields'));
    await page.getByRole('checkbox', { name: 'bot', exact: true }).check();
    await page.getByRole('region', { name: 'Classifications' }).getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved: every report now counts the ticked reasons.').waitFor();
    await expect.poll(visitors).toBe(4);
    await page.screenshot({ path: screenshotPath('settings-shields'), fullPage: true });
    await page.goto(dashboardUrl('2024-01-08', '2024-01-08'));
    await expect.poll(() => topStat(page, 'visitors').textContent(), { timeout: 15_000 }).toBe('4');
    await context.close();
  });

  it('shows a country shield in the ingestion health panel once an event from that country arrives', async () => {
    const { context, page } = await signedIn(account.userId);
    await page.goto(settingsUrl('shields'));
    await page.getByLabel('Country code').fill('US');
    await page.getByRole('region', { name: 'Countries' }).getByRole('button', { name: 'Add' }).click();
    await page.getByRole('region', { name: 'Countries' }).getByText('US', { exact: true }).waitFor();
    // 8.8.8.8 is in the United States (the bundled DB-IP data).
    const sent = await collect(t, { n: 'pageview', d: account.domain, u: `https://${account.domain}/` }, { ip: '8.8.8.8' });
    expect(sent.status).toBe(202);
    await page.goto(settingsUrl('health'));
    await page.locator('tr[data-outcome="shield_country"]').waitFor();
    expect(await page.locator('tr[data-outcome="shield_country"] td.num').textContent()).toBe('1');
    // The same count hour by hour, in the table behind the chart.
    await page.getByText('Per hour, as a table').click();
    const hours = page.locator('.health-hours tbody tr');
    expect(await hours.count()).toBe(1);
    expect(await page.locator('.health-hours thead').textContent()).toContain('Country shield');
    expect(await hours.first().locator('td.num').textContent()).toBe('1');
    await page.screenshot({ path: screenshotPath('settings-health'), fullPage: true });
    await context.close();
  });

  it('creates a webhook, shows its delivery, and redelivers it', async () => {
    const { context, page } = await signedIn(account.userId);
    // Events published before the webhook existed are not for it: let the worker pass them first.
    await t.app.webhooks.tick();
    await page.goto(settingsUrl('webhooks'));
    await page.getByLabel('URL').fill(`${receiver.url}/hooks`);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    expect(await page.getByTestId('shown-once').textContent()).toMatch(/^whsec_/);
    // A new site publishes site.created; the worker delivers it.
    const created = await fetch(`${t.url}/api/v1/sites`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ domain: 'second.example.com' }),
    });
    expect(created.status).toBe(200);
    await t.app.webhooks.tick();
    const domains = () => receiver.requests.map((r) => JSON.parse(r.rawBody.toString('utf8')).data.domain);
    expect(domains()).toEqual(['second.example.com']);
    await page.getByRole('button', { name: 'Deliveries' }).click();
    const log = page.locator('.log-table tbody tr');
    await log.first().waitFor();
    expect(await log.count()).toBe(1);
    expect(await log.first().textContent()).toContain('site.created');
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/redeliver') && r.ok()), page.getByRole('button', { name: 'Redeliver' }).click()]);
    await t.app.webhooks.tick();
    expect(receiver.requests).toHaveLength(2);
    await page.getByRole('button', { name: 'Hide deliveries' }).click();
    await page.getByRole('button', { name: 'Deliveries' }).click();
    await expect.poll(() => log.count()).toBe(2);

    // Rotating shows the new secret once and how long the old one stays valid (one hour; the clock stands at noon).
    const first = await page.getByTestId('shown-once').textContent();
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog', { name: 'Rotate the signing secret?' }).getByRole('button', { name: 'Rotate secret' }).click();
    await expect.poll(() => page.getByTestId('shown-once').textContent()).not.toBe(first);
    expect(await page.getByTestId('shown-once').textContent()).toMatch(/^whsec_/);
    await page.getByText('Secret rotated: the old one stays valid until').waitFor();
    expect(await page.getByText('The old secret stays valid until').textContent()).toContain(
      new Date(Date.parse('2024-01-10T13:00:00Z')).toLocaleString('en-US'),
    );
    await page.screenshot({ path: screenshotPath('settings-webhooks'), fullPage: true });
    await context.close();
  });

  it('invites a member, who accepts in another browser, and changes their role', async () => {
    const invitee = await createAccount(t.app);
    const inviteeEmail = (await t.app.meta.db.selectFrom('users').select('email').where('id', '=', invitee.userId).executeTakeFirstOrThrow()).email;
    const owner = await signedIn(account.userId);
    await owner.page.goto(`${t.url}/settings/team/members`);
    await owner.page.getByLabel('Email', { exact: true }).fill(inviteeEmail);
    await owner.page.getByLabel('Role', { exact: true }).selectOption('editor');
    await owner.page.getByRole('button', { name: 'Invite' }).click();
    expect(await owner.page.getByTestId('invitation-link').textContent()).toContain('/invitations/accept?token=');
    await owner.page.locator('.settings-list li', { hasText: inviteeEmail }).first().waitFor();

    const guest = await signedIn(invitee.userId);
    // Every page with the app's frame shows invitations addressed to the signed-in user.
    await guest.page.goto(`${t.url}/settings/team/members`);
    const banner = guest.page.locator('.invitation-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('as editor');
    await guest.page.screenshot({ path: screenshotPath('invitation-banner'), fullPage: true });
    await banner.getByRole('button', { name: 'Accept' }).click();
    await banner.waitFor({ state: 'detached' });
    await guest.context.close();

    await owner.page.reload();
    const role = owner.page.getByLabel(`Role of ${inviteeEmail}`);
    await expect.poll(() => role.inputValue()).toBe('editor');
    await role.selectOption('viewer');
    await expect
      .poll(
        async () =>
          (
            await t.app.meta.db
              .selectFrom('memberships')
              .select('role')
              .where('user_id', '=', invitee.userId)
              .where('team_id', '=', account.teamId)
              .executeTakeFirst()
          )?.role,
      )
      .toBe('viewer');
    await owner.page.screenshot({ path: screenshotPath('settings-members-with-member'), fullPage: true });
    await owner.context.close();
  });

  it('refuses the settings pages and their routes to a viewer', async () => {
    const viewer = await createAccount(t.app);
    await grantTeamRole(t.app.meta.db, account.teamId, viewer.userId, 'viewer', t.app.clock.now());
    const { context, page } = await signedIn(viewer.userId);
    await page.goto(settingsUrl('goals'));
    await page.getByText('Settings are not available to you').waitFor();
    await page.goto(`${t.url}/settings/team/api-keys?team=${account.teamId}`);
    await page.getByText('Settings are not available to you').waitFor();
    const headers = { ...(await signedInHeaders(t.app, viewer.userId)), 'x-svc-team': String(account.teamId), 'content-type': 'application/json' };
    const goal = await fetch(`${t.url}/api/v1/sites/goals`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ site_id: account.domain, goal_type: 'event', event_name: 'X' }),
    });
    expect(goal.status).toBe(403);
    const keys = await fetch(`${t.url}/app/api/teams/${account.teamId}/api-keys`, { headers });
    expect(keys.status).toBe(403);
    await context.close();
  });

  it('saves screenshots of every settings page, light and dark, desktop and phone', async () => {
    const pages = [
      ...['general', 'goals', 'funnels', 'properties', 'visibility', 'shields', 'tracker', 'health', 'webhooks', 'imports', 'export'].map((section) => ({
        name: section,
        url: settingsUrl(section),
      })),
      ...['members', 'api-keys', 'webhooks'].map((section) => ({ name: `team-${section}`, url: `${t.url}/settings/team/${section}` })),
    ];
    for (const [options, suffix] of [
      [{}, ''],
      [{ dark: true }, '-dark'],
      [{ phone: true }, '-phone'],
    ] as const) {
      const { context, page } = await signedIn(account.userId, options);
      for (const { name, url } of pages) {
        await page.goto(url);
        await page.locator('.settings-section').first().waitFor();
        // Each section's own data has arrived, so the picture shows the page as a user reads it.
        await page.waitForLoadState('networkidle');
        await page.screenshot({ path: screenshotPath(`settings-${name}${suffix}`), fullPage: true });
        // Nothing widens the page beyond a 375-pixel phone (wide tables scroll or stack inside their card).
        if ('phone' in options) expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(375);
      }
      await context.close();
    }
  });

  it('downloads the export from the settings screen', async () => {
    const { context, page } = await signedIn(account.userId);
    await page.goto(settingsUrl('export'));
    await page.getByLabel('From (optional)').fill('2024-01-08');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download ZIP' }).click()]);
    expect(download.suggestedFilename()).toBe(`${account.domain.replaceAll('.', '_')}_20240110.zip`);
    const entries = await readZip(readFileSync((await download.path()) as string));
    expect(entries.size).toBe(11);
    await page.screenshot({ path: screenshotPath('settings-export'), fullPage: true });
    await context.close();
  });

  it('prepares an export in the background, offers it when ready, and deletes it', async () => {
    const { context, page } = await signedIn(account.userId);
    await page.goto(settingsUrl('export'));
    await page.getByLabel('From (optional)').fill('2024-01-08');
    await page.getByLabel('To (optional; default today)').fill('2024-01-09');
    await page.getByRole('button', { name: 'Prepare in the background' }).click();
    const ready = page.locator('[data-export-status="ready"]');
    await ready.waitFor({ timeout: 20_000 });
    expect(await ready.textContent()).toContain('2024-01-08 to 2024-01-09');
    await page.screenshot({ path: screenshotPath('settings-export-prepared'), fullPage: true });
    const [download] = await Promise.all([page.waitForEvent('download'), ready.getByRole('link', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toBe(`${account.domain.replaceAll('.', '_')}_20240109.zip`);
    const entries = await readZip(readFileSync((await download.path()) as string));
    expect(entries.size).toBe(11);
    expect(csvRows(entries.get('events_20240108_20240109.csv') ?? '')).toHaveLength(11);
    await ready.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await ready.waitFor({ state: 'detached' });

    await page.getByLabel('To (optional; default today)').fill('2024-01-07');
    await page.getByRole('button', { name: 'Prepare in the background' }).click();
    await page.locator('#export-from-error').waitFor();
    expect(await page.locator('#export-from-error').textContent()).toContain('is after "to"');
    await context.close();
  });

  it('imports an uploaded export and lists it', async () => {
    const { context, page } = await signedIn(account.userId);
    await page.goto(settingsUrl('imports'));
    await page.getByLabel('Export file (.zip or .csv)').setInputFiles({
      name: 'imported_visitors_20240101_20240102.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('date,visitors,pageviews,bounces,visits,visit_duration\n2024-01-01,10,25,4,12,600\n'),
    });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await t.app.imports.idle();
    await page.locator('[data-import-status="completed"]').waitFor();
    expect(await page.locator('[data-import-status="completed"]').textContent()).toContain('2024-01-01 to 2024-01-02');
    await page.screenshot({ path: screenshotPath('settings-imports'), fullPage: true });
    await context.close();
  });

  it('shows a locked team the banner on every settings page', async () => {
    await lockTeam(t.app.meta.db, account.teamId, 'unpaid invoice', t.app.clock.now());
    const { context, page } = await signedIn(account.userId);
    for (const url of [settingsUrl('general'), `${t.url}/settings/team/members`]) {
      await page.goto(url);
      await page.getByText('This team is locked').waitFor();
      expect(await page.getByRole('alert').first().textContent()).toContain('unpaid invoice');
    }
    await page.screenshot({ path: screenshotPath('settings-locked'), fullPage: true });
    // Export keeps working while locked (spec: export works in every account state).
    await page.goto(settingsUrl('export'));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download ZIP' }).click()]);
    expect((await readZip(readFileSync((await download.path()) as string))).size).toBe(11);
    await context.close();
  });
});
