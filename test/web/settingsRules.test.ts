import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantTeamRole } from '../../src/stores/meta/guests.js';
import { listOpenNotices } from '../../src/webhooks/notices.js';
import { startSmallSite } from '../query/smallSite.js';
import { launchBrowser, screenshotPath } from '../support/browser.js';
import { collect } from '../support/collect.js';
import type { Account, TestApp } from '../support/testApp.js';
import { createAccount } from '../support/testApp.js';
import { signedInContext, signedInHeaders } from '../support/webSession.js';
import { type Receiver, startReceiver } from '../webhooks/support/receiver.js';

// The rules of the settings screens (docs/settings.md): the server's sentence next to its field, confirmation
// before destructive actions, roles enforced, and changes shown without a reload.
describe('settings screens: rules', () => {
  let t: TestApp;
  let account: Account;
  let browser: Browser;
  let receiver: Receiver;

  beforeAll(async () => {
    ({ t, account } = await startSmallSite());
    await t.app.webhooks.stop();
    browser = await launchBrowser();
    receiver = await startReceiver({ tls: false });
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await t?.close();
  });

  async function signedIn(userId: number): Promise<{ context: BrowserContext; page: Page }> {
    const context = await signedInContext(browser, t, userId);
    return { context, page: await context.newPage() };
  }

  const settingsUrl = (domain: string, section: string) => `${t.url}/${domain}/settings/${section}`;
  const apiCall = (key: string, method: string, path: string, body?: unknown) =>
    fetch(`${t.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it("shows the server's sentence under the field it is about", async () => {
    const { context, page } = await signedIn(account.userId);
    await page.goto(settingsUrl(account.domain, 'goals'));
    await page.getByLabel('Revenue').check();
    await page.getByLabel('Event name').fill('Purchase');
    await page.getByLabel('Currency').fill('XYZ');
    await page.getByRole('button', { name: 'Add goal' }).click();
    await page.locator('#goal-currency-error').waitFor();
    expect(await page.locator('#goal-currency-error').textContent()).toContain('ISO 4217');
    expect(await page.getByLabel('Currency').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('.form-error').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('settings-field-error'), fullPage: true });

    await page.getByLabel('Custom event').check();
    await page.getByLabel('Event name').fill('');
    await page.getByRole('button', { name: 'Add goal' }).click();
    await page.locator('#goal-event-error').waitFor();
    expect(await page.locator('#goal-event-error').textContent()).toContain('"event_name" is required');
    // The field the sentence is about takes the focus.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('goal-event');

    await page.goto(settingsUrl(account.domain, 'shields'));
    await page.getByLabel('IP address or range').fill('not-an-ip');
    await page.getByRole('region', { name: 'IP addresses' }).getByRole('button', { name: 'Add' }).click();
    await page.locator('#shield-ip-error').waitFor();
    expect(await page.locator('#shield-ip-error').textContent()).toContain('is not an IPv4 or IPv6 address');

    await page.goto(`${t.url}/settings/team/api-keys`);
    await page.getByLabel('Name').fill('Nothing');
    for (const scope of ['stats:read', 'sites:read', 'sites:provision', 'webhooks:write']) await page.getByRole('checkbox', { name: scope }).uncheck();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('.checks .field-error').waitFor();
    expect(await page.locator('.checks .field-error').textContent()).toContain('Tick at least one scope');
    await page.getByRole('checkbox', { name: 'stats:read' }).check();
    await page.getByLabel('Requests per hour (optional; default 10,000)').fill('lots');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#key-limit-error').waitFor();
    expect(await page.locator('#key-limit-error').textContent()).toContain('"hourly_limit"');
    expect(await page.getByTestId('shown-once').count()).toBe(0);
    await context.close();
  });

  it('lets an editor change site set-up, but not people, keys, webhooks or the site itself', async () => {
    const editor = await createAccount(t.app);
    await grantTeamRole(t.app.meta.db, account.teamId, editor.userId, 'editor', t.app.clock.now());
    const { context, page } = await signedIn(editor.userId);
    await page.goto(settingsUrl(account.domain, 'general'));
    await page.getByText("Ask the team's owner if this site should go.").waitFor();
    expect(await page.getByRole('button', { name: 'Delete site' }).count()).toBe(0);
    const nav = page.getByRole('navigation', { name: 'Site settings sections' });
    expect(await nav.getByRole('link', { name: 'Goals' }).count()).toBe(1);
    expect(await nav.getByRole('link', { name: 'Webhooks' }).count()).toBe(0);
    await page.goto(settingsUrl(account.domain, 'visibility'));
    await page.getByText("The team's owner and admins invite and remove guests.").waitFor();
    expect(await page.getByRole('button', { name: 'Invite guest' }).count()).toBe(0);
    await page.goto(`${t.url}/settings/team/members?team=${account.teamId}`);
    await page.getByText('Settings are not available to you').waitFor();

    // The server refuses the same, whatever the screens show.
    const headers = { ...(await signedInHeaders(t.app, editor.userId)), 'x-svc-team': String(account.teamId), 'content-type': 'application/json' };
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${t.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    expect((await call('PUT', '/api/v1/sites/goals', { site_id: account.domain, goal_type: 'event', event_name: 'EditorGoal' })).status).toBe(200);
    const invite = await call('PUT', '/api/v1/teams/memberships', { email: 'someone@example.org', role: 'viewer' });
    expect(invite.status).toBe(403);
    expect((await invite.json()).error).toBe('Only a team owner or admin can invite team members; you are an editor.');
    expect((await call('PUT', '/api/v1/sites/guests', { site_id: account.domain, email: 'someone@example.org', role: 'viewer' })).status).toBe(403);
    expect((await call('POST', `/app/api/teams/${account.teamId}/api-keys`, { name: 'mine' })).status).toBe(403);
    expect((await call('POST', '/api/v1/webhooks', { url: `${receiver.url}/x`, event_types: [] })).status).toBe(403);
    expect((await call('DELETE', `/api/v1/sites/${account.domain}`)).status).toBe(403);
    expect((await call('POST', '/api/v1/teams/ownership-transfer', { email: 'someone@example.org' })).status).toBe(403);
    await context.close();
  });

  it('renames a site, naming the old domain and its last day, and deletes it only once its domain is typed', async () => {
    const owner = await createAccount(t.app);
    const renamed = `renamed-${owner.siteId}.example.com`;
    const { context, page } = await signedIn(owner.userId);
    await page.goto(settingsUrl(owner.domain, 'general'));
    await page.locator('#site-domain').fill('not a domain');
    await page.getByRole('button', { name: 'Change domain' }).click();
    await page.locator('#site-domain-error').waitFor();
    expect(await page.locator('#site-domain-error').textContent()).toContain('is not a valid domain');

    await page.locator('#site-domain').fill(renamed);
    await page.getByRole('button', { name: 'Change domain' }).click();
    await page.waitForURL(settingsUrl(renamed, 'general'));
    const note = page.getByTestId('previous-domain');
    await note.waitFor();
    // The clock stands at 10 January 2024; the old name answers for 30 days.
    expect(await note.textContent()).toContain(owner.domain);
    expect(await note.textContent()).toMatch(/February 9, 2024|9 February 2024/);
    await page.screenshot({ path: screenshotPath('settings-general-renamed'), fullPage: true });

    await page.getByRole('button', { name: 'Delete site' }).click();
    const dialog = page.getByRole('dialog');
    const confirm = dialog.getByRole('button', { name: 'Delete site' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(/Type .* to confirm/).fill(owner.domain);
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(/Type .* to confirm/).fill(renamed);
    await page.screenshot({ path: screenshotPath('settings-delete-confirmation') });
    await confirm.click();
    await page.waitForURL(`${t.url}/`);
    expect((await apiCall(owner.key, 'GET', `/api/v1/sites/${renamed}`)).status).toBe(404);
    await context.close();
  });

  it('builds a funnel whose steps are reordered by keyboard and by dragging', async () => {
    for (const page_path of ['/', '/blog']) {
      expect((await apiCall(account.key, 'PUT', '/api/v1/sites/goals', { site_id: account.domain, goal_type: 'page', page_path })).status).toBe(200);
    }
    const { context, page } = await signedIn(account.userId);
    await page.goto(settingsUrl(account.domain, 'funnels'));
    await page.getByLabel('Name').fill('Reading');
    for (const goal of ['Signup', 'Visit /', 'Visit /blog']) await page.getByLabel('Add a step').selectOption({ label: goal });
    const steps = page.getByRole('list', { name: 'Steps' }).locator('li .step-name');
    const order = async () => (await steps.allTextContents()).map((text) => text.replace(/^\d+\. /, ''));
    expect(await order()).toEqual(['Signup', 'Visit /', 'Visit /blog']);
    // Keyboard: the move buttons are ordinary buttons, reached and pressed without a mouse.
    await page.getByRole('button', { name: 'Move Visit /blog up' }).focus();
    await page.keyboard.press('Enter');
    expect(await order()).toEqual(['Signup', 'Visit /blog', 'Visit /']);
    // Mouse: drag the first step onto the last place.
    await page
      .getByRole('list', { name: 'Steps' })
      .locator('li')
      .first()
      .dragTo(page.getByRole('list', { name: 'Steps' }).locator('li').last());
    expect(await order()).toEqual(['Visit /blog', 'Visit /', 'Signup']);
    await page.screenshot({ path: screenshotPath('settings-funnel-steps'), fullPage: true });
    await page.getByRole('button', { name: 'Add funnel' }).click();
    const saved = page.locator('.settings-list li', { hasText: 'Reading' });
    await saved.waitFor();
    expect(await saved.textContent()).toContain('Visit /blog → Visit / → Signup');
    await context.close();
  });

  it('revokes a guest invitation, lets an invitee decline one, starts and cancels an ownership transfer, and says when an invitation changes nothing', async () => {
    const { context, page } = await signedIn(account.userId);
    await page.goto(settingsUrl(account.domain, 'visibility'));
    await page.getByLabel('Email').fill('guest@example.org');
    await page.getByLabel('Role').selectOption('editor');
    await page.getByRole('button', { name: 'Invite guest' }).click();
    const pending = page.locator('.settings-list li', { hasText: 'guest@example.org' }).filter({ has: page.getByRole('button', { name: 'Revoke' }) });
    await pending.waitFor();
    await pending.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await pending.waitFor({ state: 'detached' });

    // An invitation addressed to someone with an account: they decline it from the banner.
    const invitee = await createAccount(t.app);
    const inviteeEmail = (await t.app.meta.db.selectFrom('users').select('email').where('id', '=', invitee.userId).executeTakeFirstOrThrow()).email;
    await page.getByLabel('Email').fill(inviteeEmail);
    await page.getByRole('button', { name: 'Invite guest' }).click();
    await page.getByTestId('invitation-link').waitFor();
    const other = await signedIn(invitee.userId);
    await other.page.goto(`${t.url}/`);
    const banner = other.page.locator('.invitation-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toContain(account.domain);
    await banner.getByRole('button', { name: 'Decline' }).click();
    await banner.waitFor({ state: 'detached' });
    await other.context.close();
    await page.reload();
    await page.getByRole('region', { name: 'Guests' }).getByText('No guests yet.').waitFor();

    await page.goto(`${t.url}/settings/team/members`);
    await page.getByLabel("New owner's email").fill('next-owner@example.org');
    await page.getByRole('button', { name: 'Transfer ownership' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Transfer ownership' }).click();
    await page.getByText('A transfer to next-owner@example.org is pending').waitFor();
    expect(await page.getByText('Send this link to the new owner:').count()).toBe(1);
    await page.getByRole('button', { name: 'Cancel transfer' }).click();
    await page.getByRole('dialog', { name: 'Cancel the ownership transfer?' }).getByRole('button', { name: 'Cancel transfer' }).click();
    await page.getByText('A transfer to next-owner@example.org').waitFor({ state: 'detached' });

    // Inviting a member with the role they have changes nothing, and says so.
    const member = await createAccount(t.app);
    await grantTeamRole(t.app.meta.db, account.teamId, member.userId, 'editor', t.app.clock.now());
    const editor = (await t.app.meta.db.selectFrom('users').select('email').where('id', '=', member.userId).executeTakeFirstOrThrow()).email;
    await page.getByLabel('Email', { exact: true }).fill(editor);
    await page.getByLabel('Role', { exact: true }).selectOption('editor');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByText(`${editor} already has this access; nothing changed.`).waitFor();
    await context.close();
  });

  it('rewrites the snippet when a switch changes, and tells whether events arrived in the last 30 minutes and where', async () => {
    const { context, page } = await signedIn(account.userId);
    await page.goto(settingsUrl(account.domain, 'tracker'));
    const snippet = page.getByTestId('snippet');
    await snippet.waitFor();
    expect(await snippet.textContent()).toContain('/js/script.js');
    await page.getByRole('checkbox', { name: /Outbound links/ }).check();
    await expect.poll(() => snippet.textContent()).toContain('/js/script.outbound-links.js');

    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByText('No event in the last 30 minutes yet.').waitFor();
    const sent = await collect(t, { n: 'pageview', d: account.domain, u: `https://${account.domain}/welcome` });
    expect(sent.status).toBe(202);
    await t.app.ingestion.buffer.flush();
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByText('Events are arriving. Latest pages: /welcome').waitFor();
    await page.screenshot({ path: screenshotPath('settings-tracker-verified'), fullPage: true });
    await context.close();
  });

  it('tells the owner an endpoint looks broken, on the webhook and as a banner on every settings page until dismissed', async () => {
    receiver.answer = () => ({ status: 500, body: 'down for maintenance' });
    // Events published before the webhook existed are not for it: let the worker pass them first.
    await t.app.webhooks.tick();
    const created = await apiCall(account.key, 'POST', '/api/v1/webhooks', { url: `${receiver.url}/broken`, event_types: ['site.created'] });
    expect(created.status).toBe(201);
    for (let i = 0; i < 5; i += 1) {
      expect((await apiCall(account.key, 'POST', '/api/v1/sites', { domain: `failing-${i}.example.com` })).status).toBe(200);
    }
    await t.app.webhooks.tick();
    const { context, page } = await signedIn(account.userId);
    for (const url of [`${t.url}/settings/team/members`, settingsUrl(account.domain, 'goals')]) {
      await page.goto(url);
      const banner = page.locator('[data-notice="webhook_failing"]');
      await banner.waitFor();
      expect(await banner.textContent()).toContain(`${receiver.url}/broken looks broken`);
    }
    await page.getByRole('link', { name: 'Open webhooks' }).click();
    await page.getByTestId('looks-broken').waitFor();
    expect(await page.getByTestId('looks-broken').textContent()).toContain('5 deliveries in a row failed');
    await page.getByRole('button', { name: 'Deliveries' }).click();
    await page.locator('.log-table tbody tr').first().waitFor();
    expect(await page.locator('.log-table tbody tr').first().textContent()).toContain('down for maintenance');
    await page.screenshot({ path: screenshotPath('settings-webhook-looks-broken'), fullPage: true });

    await page.locator('[data-notice="webhook_failing"]').getByRole('button', { name: 'Dismiss' }).click();
    await page.locator('[data-notice="webhook_failing"]').waitFor({ state: 'detached' });
    expect(await listOpenNotices(t.app.meta.db, account.teamId)).toEqual([]);
    await page.reload();
    await page.getByTestId('looks-broken').waitFor();
    expect(await page.locator('[data-notice]').count()).toBe(0);

    // Ten more failures stop it; a new notice says so, and the owner re-enables it once the receiver works.
    for (let i = 5; i < 15; i += 1) {
      expect((await apiCall(account.key, 'POST', '/api/v1/sites', { domain: `failing-${i}.example.com` })).status).toBe(200);
    }
    await t.app.webhooks.tick();
    await page.reload();
    await page.locator('[data-notice="webhook_stopped"]').waitFor();
    expect(await page.getByTestId('looks-broken').textContent()).toContain('so it was stopped');
    receiver.answer = () => ({ status: 200, body: 'ok' });
    await page.getByRole('button', { name: 'Re-enable' }).click();
    await page.getByRole('button', { name: 'Re-enable' }).waitFor({ state: 'detached' });
    await page.getByTestId('looks-broken').waitFor({ state: 'detached' });
    expect(await page.locator('.webhook .badge').first().textContent()).toBe('sending');
    await context.close();
  });
});
