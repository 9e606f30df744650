import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantSiteGuest } from '../../src/stores/meta/guests.js';
import { lockTeam } from '../../src/stores/meta/teams.js';
import { startSmallSite } from '../query/smallSite.js';
import type { Account, TestApp } from '../support/testApp.js';
import { createAccount } from '../support/testApp.js';
import { signedInHeaders } from '../support/webSession.js';

// The dashboard's data routes: the same engine as POST /api/v2/query, behind the session cookie.
describe('dashboard data for a signed-in viewer', () => {
  let t: TestApp;
  let account: Account;
  let owner: { cookie: string; 'x-csrf-token': string };
  beforeAll(async () => {
    ({ t, account } = await startSmallSite());
    owner = await signedInHeaders(t.app, account.userId);
  });
  afterAll(() => t.close());

  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    fetch(`${t.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('describes the site: time zone, role, goals', async () => {
    const response = await fetch(`${t.url}/app/api/sites/${account.domain}`, { headers: { cookie: owner.cookie } });
    expect(response.status).toBe(200);
    const site = await response.json();
    expect(site).toMatchObject({ domain: account.domain, timezone: 'Etc/UTC', role: 'owner', guest: false, locked: false, custom_properties: [] });
    expect(site.goals.map((g: { display_name: string }) => g.display_name)).toEqual(['Signup']);
  });

  it('answers queries with the same numbers as the API', async () => {
    const query = { metrics: ['visitors', 'pageviews'], date_range: ['2024-01-08', '2024-01-09'] };
    const web = await post(`/app/api/sites/${account.domain}/query`, query, owner);
    expect(web.status).toBe(200);
    const api = await post('/api/v2/query', { ...query, site_id: account.domain }, { authorization: `Bearer ${account.key}` });
    const [a, b] = [await web.json(), await api.json()];
    expect(a.results).toEqual(b.results);
    expect(a.results[0].metrics).toEqual([4, 8]);
  });

  it('gives the query API sentences for a bad query', async () => {
    const response = await post(`/app/api/sites/${account.domain}/query`, { metrics: ['nonsense'], date_range: 'day' }, owner);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatch(/nonsense/);
  });

  it('refuses a request without the CSRF token, and one without a session', async () => {
    const noToken = await post(`/app/api/sites/${account.domain}/query`, { metrics: ['visitors'] }, { cookie: owner.cookie });
    expect(noToken.status).toBe(403);
    expect((await noToken.json()).code).toBe('csrf_token_invalid');
    const noSession = await post(`/app/api/sites/${account.domain}/query`, { metrics: ['visitors'] }, {});
    expect(noSession.status).toBe(401);
  });

  it("hides other teams' sites, but shows a site to its guest", async () => {
    const stranger = await createAccount(t.app);
    const headers = await signedInHeaders(t.app, stranger.userId);
    const hidden = await fetch(`${t.url}/app/api/sites/${account.domain}`, { headers: { cookie: headers.cookie } });
    expect(hidden.status).toBe(404);
    await grantSiteGuest(t.app.meta.db, account.siteId, stranger.userId, 'viewer', t.app.clock.now());
    const shown = await fetch(`${t.url}/app/api/sites/${account.domain}`, { headers: { cookie: headers.cookie } });
    expect(await shown.json()).toMatchObject({ role: 'viewer', guest: true });
  });

  it('answers 402 with the reason when the team is locked', async () => {
    await lockTeam(t.app.meta.db, account.teamId, 'unpaid invoice', t.app.clock.now());
    const response = await post(`/app/api/sites/${account.domain}/query`, { metrics: ['visitors'], date_range: 'day' }, owner);
    expect(response.status).toBe(402);
    expect((await response.json()).error).toContain('unpaid invoice');
  });
});
