import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantTeamRole } from '../../src/stores/meta/guests.js';
import { lockTeam } from '../../src/stores/meta/teams.js';
import { type Account, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { signedInHeaders } from '../support/webSession.js';

// The settings screens call the same /api/v1 routes as API clients, signed in by the session.
describe('API routes for a signed-in web-app user', () => {
  let t: TestApp;
  let owner: Account;
  let headers: { cookie: string; 'x-csrf-token': string };
  beforeAll(async () => {
    t = await startTestApp();
    owner = await createAccount(t.app);
    headers = await signedInHeaders(t.app, owner.userId);
  });
  afterAll(() => t.close());

  const call = (method: string, path: string, extra: Record<string, string>, body?: unknown) =>
    fetch(`${t.url}${path}`, {
      method,
      headers: { ...extra, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it("acts for the team named in x-svc-team, with the role's scopes", async () => {
    const response = await call('GET', '/api/v1/sites', { cookie: headers.cookie, 'x-svc-team': String(owner.teamId) });
    expect(response.status).toBe(200);
    expect((await response.json()).sites.map((s: { domain: string }) => s.domain)).toEqual([owner.domain]);
    const goal = await call(
      'PUT',
      '/api/v1/sites/goals',
      { ...headers, 'x-svc-team': String(owner.teamId) },
      { site_id: owner.domain, goal_type: 'event', event_name: 'Signup' },
    );
    expect(goal.status).toBe(200);
  });

  it('needs the team header, membership, and the CSRF token on changes', async () => {
    expect((await call('GET', '/api/v1/sites', { cookie: headers.cookie })).status).toBe(400);
    const other = await createAccount(t.app);
    const foreign = await call('GET', '/api/v1/sites', { cookie: headers.cookie, 'x-svc-team': String(other.teamId) });
    expect(foreign.status).toBe(403);
    const forged = await call(
      'PUT',
      '/api/v1/sites/goals',
      { cookie: headers.cookie, 'x-svc-team': String(owner.teamId) },
      { site_id: owner.domain, goal_type: 'event', event_name: 'X' },
    );
    expect(forged.status).toBe(403);
    expect((await forged.json()).code).toBe('csrf_token_invalid');
  });

  it('gives a viewer read scopes only', async () => {
    const viewer = await createAccount(t.app);
    await grantTeamRole(t.app.meta.db, owner.teamId, viewer.userId, 'viewer', t.app.clock.now());
    const viewerHeaders = { ...(await signedInHeaders(t.app, viewer.userId)), 'x-svc-team': String(owner.teamId) };
    expect((await call('GET', `/api/v1/sites/goals?site_id=${owner.domain}`, viewerHeaders)).status).toBe(200);
    const refused = await call('PUT', '/api/v1/sites/goals', viewerHeaders, { site_id: owner.domain, goal_type: 'event', event_name: 'Y' });
    expect(refused.status).toBe(403);
    expect((await refused.json()).code).toBe('insufficient_scope');
  });

  it("keeps a locked team's settings open and its statistics closed", async () => {
    const locked = await createAccount(t.app);
    await lockTeam(t.app.meta.db, locked.teamId, 'unpaid invoice', t.app.clock.now());
    const lockedHeaders = { ...(await signedInHeaders(t.app, locked.userId)), 'x-svc-team': String(locked.teamId) };
    expect((await call('GET', '/api/v1/sites', lockedHeaders)).status).toBe(200);
    const stats = await call('POST', '/api/v2/query', lockedHeaders, { site_id: locked.domain, metrics: ['visitors'], date_range: 'day' });
    expect(stats.status).toBe(402);
  });
});
