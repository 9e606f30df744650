import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../support/manualClock.js';
import { bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { apiClient, q, testEnv } from './client.js';

// Requests exactly as Plausible's own Sites API tests send them: a client written against
// Plausible must get the same statuses and shapes here.
const clock = new ManualClock(Date.parse('2026-03-01T12:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock, env: testEnv({ BASE_URL: 'https://stats.example.org' }) });
});
afterAll(() => t.close());

let counter = 0;
const freshEmail = () => `client-${process.pid}-${++counter}@example.net`;

async function setup() {
  const account = await createAccount(t.app);
  return { account, api: apiClient(t.url, account.key) };
}

describe('Plausible Sites API clients', () => {
  it('take site_id from the query string on writes, as Plausible merges query and body parameters', async () => {
    const { account, api } = await setup();
    const site_id = account.domain;
    const invited = await api.put(`/api/v1/sites/guests${q({ site_id })}`, { email: freshEmail(), role: 'viewer' });
    expect(invited.status).toBe(200);
    expect(invited.body).toMatchObject({ role: 'viewer', status: 'invited' });
    const goal = await api.put(`/api/v1/sites/goals${q({ site_id })}`, { goal_type: 'event', event_name: 'Signup' });
    expect(goal.status).toBe(200);
    expect(goal.body).toMatchObject({ goal_type: 'event', event_name: 'Signup', domain: site_id });
    expect((await api.put(`/api/v1/sites/custom-props${q({ site_id })}`, { property: 'plan' })).body).toEqual({ created: true });
    expect((await api.put(`/api/v1/sites/shared-links${q({ site_id })}`, { name: 'Board' })).body.name).toBe('Board');
    // The body still wins when both carry it, and a missing one is still named.
    expect((await api.put('/api/v1/sites/goals', { goal_type: 'event', event_name: 'Signup' })).body.error).toContain('site_id');
  });

  it('treat an empty body labelled application/json as no body, and still refuse malformed JSON', async () => {
    const { account, api } = await setup();
    await api.put('/api/v1/sites/custom-props', { site_id: account.domain, property: 'plan' });
    const headers = { ...bearer(account.key), 'content-type': 'application/json' };
    const deleted = await fetch(`${t.url}/api/v1/sites/custom-props/plan${q({ site_id: account.domain })}`, { method: 'DELETE', headers });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ deleted: true });
    const malformed = await fetch(`${t.url}/api/v1/sites/goals`, { method: 'PUT', headers, body: '{"site_id":' });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error).toBe('The request body is not valid JSON.');
  });

  it('delete a guest idempotently: nothing to delete is still {"deleted": true}', async () => {
    const { account, api } = await setup();
    const site_id = account.domain;
    const email = freshEmail();
    expect(await api.delete(`/api/v1/sites/guests/${encodeURIComponent(email)}${q({ site_id })}`)).toEqual({ status: 200, body: { deleted: true } });
    await api.put('/api/v1/sites/guests', { site_id, email, role: 'viewer' });
    expect(await api.delete(`/api/v1/sites/guests/${encodeURIComponent(email)}${q({ site_id })}`)).toEqual({ status: 200, body: { deleted: true } });
    expect(await api.delete(`/api/v1/sites/guests/${encodeURIComponent(email)}${q({ site_id })}`)).toEqual({ status: 200, body: { deleted: true } });
    expect((await api.get(`/api/v1/sites/guests${q({ site_id })}`)).body.guests).toEqual([]);
    // The site must still be the caller's.
    expect((await api.delete(`/api/v1/sites/guests/${encodeURIComponent(email)}${q({ site_id: 'missing.example.com' })}`)).status).toBe(404);
  });

  it('invite a guest as find-or-create: a repeat with another role answers the role already held or invited', async () => {
    const { account, api } = await setup();
    const site_id = account.domain;
    const email = freshEmail();
    expect((await api.put('/api/v1/sites/guests', { site_id, email, role: 'viewer' })).body).toMatchObject({ email, role: 'viewer', status: 'invited' });
    const again = await api.put('/api/v1/sites/guests', { site_id, email, role: 'editor' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ email, role: 'viewer', status: 'invited' });
    expect((await api.get(`/api/v1/sites/guests${q({ site_id })}`)).body.guests).toEqual([{ email, role: 'viewer', status: 'invited' }]);
    // Accepted: the guest keeps the role, and no new invitation is made.
    const accepted = await apiClient(t.url, undefined).post('/api/invitations/accept', {
      token: new URL(again.body.invitation.accept_url).searchParams.get('token'),
      name: 'Guest',
      password: 'a good password',
    });
    expect(accepted.body).toMatchObject({ accepted: true, role: 'viewer' });
    expect((await api.put('/api/v1/sites/guests', { site_id, email, role: 'editor' })).body).toEqual({
      email,
      role: 'viewer',
      status: 'accepted',
      invitation: null,
    });
    expect((await api.get('/api/v1/teams/invitations')).body.invitations).toEqual([]);
  });

  it('create a goal with the empty custom_props Plausible clients send', async () => {
    const { account, api } = await setup();
    const goal = await api.put('/api/v1/sites/goals', { site_id: account.domain, goal_type: 'event', event_name: 'Signup', custom_props: {} });
    expect(goal.status).toBe(200);
    expect(goal.body).toMatchObject({ goal_type: 'event', event_name: 'Signup', custom_props: {} });
    const filtered = await api.put('/api/v1/sites/goals', { site_id: account.domain, goal_type: 'event', event_name: 'Buy', custom_props: { plan: 'pro' } });
    expect(filtered.status).toBe(400);
    expect(filtered.body.error).toContain('custom_props');
  });

  it('delete a custom property idempotently, and one whose name holds slashes', async () => {
    const { account, api } = await setup();
    const site_id = account.domain;
    expect(await api.delete('/api/v1/sites/custom-props/none', { site_id })).toEqual({ status: 200, body: { deleted: true } });
    expect((await api.put('/api/v1/sites/custom-props', { site_id, property: 'prop1/key/with/slashes' })).body).toEqual({ created: true });
    expect(await api.delete('/api/v1/sites/custom-props/prop1/key/with/slashes', { site_id })).toEqual({ status: 200, body: { deleted: true } });
    expect((await api.get(`/api/v1/sites/custom-props${q({ site_id })}`)).body).toEqual({ custom_properties: [] });
  });

  it('answer a domain that is already registered with 400, as Plausible does for every invalid domain', async () => {
    const { account, api } = await setup();
    const taken = await api.post('/api/v1/sites', { domain: account.domain });
    expect(taken.status).toBe(400);
    expect(taken.body.code).toBe('domain_taken');
    expect(taken.body.error).toContain(account.domain);
  });
});
