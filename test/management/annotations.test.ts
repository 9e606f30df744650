import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantSiteGuest, grantTeamRole } from '../../src/stores/meta/guests.js';
import { type Account, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { signedInHeaders } from '../support/webSession.js';
import { apiClient, q, testEnv } from './client.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: testEnv() });
});
afterAll(() => t.close());

async function setup(scopes?: string[]): Promise<{ account: Account; api: ReturnType<typeof apiClient>; path: string }> {
  const account = await createAccount(t.app, { scopes });
  return { account, api: apiClient(t.url, account.key), path: `/api/v1/sites/${account.domain}/annotations` };
}

// docs/management-api.md "Annotations": dated notes the dashboard's graph marks.
describe('annotations through the API', () => {
  it('adds, lists by days, changes and deletes notes', async () => {
    const { api, path } = await setup();
    const launch = await api.post(path, { date: '2026-03-02', note: '  Launched the new pricing page ' });
    expect(launch.status).toBe(201);
    expect(launch.body).toMatchObject({ date: '2026-03-02', end_date: null, note: 'Launched the new pricing page' });
    const campaign = await api.post(path, { date: '2026-02-20', end_date: '2026-03-05', note: 'Spring campaign' });
    const later = await api.post(path, { date: '2026-04-01', end_date: '2026-04-01', note: 'One day, given twice' });
    expect(later.body.end_date).toBeNull();

    const all = await api.get(path);
    expect(all.body.annotations.map((a: { note: string }) => a.note)).toEqual(['Spring campaign', 'Launched the new pricing page', 'One day, given twice']);
    // A span that began before the asked days and reaches into them is among them.
    const march = await api.get(`${path}${q({ from: '2026-03-01', to: '2026-03-31' })}`);
    expect(march.body.annotations.map((a: { id: number }) => a.id)).toEqual([campaign.body.id, launch.body.id]);

    const changed = await api.put(`${path}/${launch.body.id}`, { date: '2026-03-03', note: 'Launched, a day late' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: launch.body.id, date: '2026-03-03', note: 'Launched, a day late' });

    expect((await api.delete(`${path}/${launch.body.id}`)).body).toEqual({ deleted: true });
    expect(await api.delete(`${path}/${launch.body.id}`)).toEqual({ status: 404, body: { error: 'Annotation could not be found.', code: 'not_found' } });
    expect((await api.put(`${path}/${launch.body.id}`, { date: '2026-03-03', note: 'x' })).status).toBe(404);
  });

  it('refuses bad input with a sentence naming the field', async () => {
    const { api, path } = await setup();
    const cases: Array<[unknown, string]> = [
      [{ note: 'No day' }, '"date" is required'],
      [{ date: '2026-3-1', note: 'x' }, 'YYYY-MM-DD'],
      [{ date: '2026-02-30', note: 'x' }, 'not a day of the calendar'],
      [{ date: '2026-03-01', note: '   ' }, '"note" must be at least 1'],
      [{ date: '2026-03-01', note: 'x'.repeat(501) }, 'at most 500'],
      [{ date: '2026-03-05', end_date: '2026-03-01', note: 'x' }, 'before "date"'],
      [{ date: '2026-03-01', note: 'x', colour: 'red' }, 'Unknown field "colour"'],
      [[1, 2], 'JSON object'],
    ];
    for (const [body, mention] of cases) {
      const answer = await api.post(path, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toContain(mention);
    }
    expect((await api.get(`${path}${q({ from: 'yesterday' })}`)).body.error).toContain('YYYY-MM-DD');
    expect((await api.put(`${path}/abc`, { date: '2026-03-01', note: 'x' })).status).toBe(400);
  });

  it('reads with sites:read, changes with sites:provision, and only the key team’s sites', async () => {
    const { path } = await setup();
    const reader = apiClient(t.url, (await createAccount(t.app, { scopes: ['sites:read'] })).key);
    const readOnly = await setup(['sites:read']);
    expect((await readOnly.api.get(readOnly.path)).status).toBe(200);
    const refused = await readOnly.api.post(readOnly.path, { date: '2026-03-01', note: 'x' });
    expect(refused.status).toBe(403);
    // Another team's key learns nothing about the site.
    expect(await reader.get(path)).toEqual({ status: 404, body: { error: 'Site could not be found.', code: 'not_found' } });
    const statsOnly = await setup(['stats:read']);
    expect((await statsOnly.api.get(statsOnly.path)).status).toBe(403);
  });
});

describe('annotations on the dashboard', () => {
  const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const response = await fetch(`${t.url}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };

  it('shows notes to viewers and lets editors, guest editors included, change them', async () => {
    const owner = await createAccount(t.app);
    const path = `/app/api/sites/${owner.domain}/annotations`;
    const ownerHeaders = await signedInHeaders(t.app, owner.userId);
    const added = await call('POST', path, ownerHeaders, { date: '2026-03-02', note: 'Release 2.0' });
    expect(added.status).toBe(201);

    const viewer = await createAccount(t.app);
    await grantTeamRole(t.app.meta.db, owner.teamId, viewer.userId, 'viewer', t.app.clock.now());
    const viewerHeaders = await signedInHeaders(t.app, viewer.userId);
    expect((await call('GET', path, viewerHeaders)).body.annotations.map((a: { note: string }) => a.note)).toEqual(['Release 2.0']);
    const refused = await call('POST', path, viewerHeaders, { date: '2026-03-03', note: 'Not mine to add' });
    expect(refused).toEqual({
      status: 403,
      body: { code: 'forbidden_role', error: "Annotations are added and changed by the site's editors; you are a viewer." },
    });
    expect((await call('DELETE', `${path}/${added.body.id}`, viewerHeaders)).status).toBe(403);

    const guest = await createAccount(t.app);
    await grantSiteGuest(t.app.meta.db, owner.siteId, guest.userId, 'editor', t.app.clock.now());
    const guestHeaders = await signedInHeaders(t.app, guest.userId);
    const edited = await call('PUT', `${path}/${added.body.id}`, guestHeaders, { date: '2026-03-02', end_date: '2026-03-04', note: 'Release 2.0 week' });
    expect(edited.body).toMatchObject({ end_date: '2026-03-04', note: 'Release 2.0 week' });

    // Changes need the page's security token; strangers do not learn the site exists.
    expect((await call('POST', path, { cookie: ownerHeaders.cookie }, { date: '2026-03-03', note: 'x' })).body.code).toBe('csrf_token_invalid');
    const stranger = await createAccount(t.app);
    expect((await call('GET', path, await signedInHeaders(t.app, stranger.userId))).status).toBe(404);
    // A shared link shows the notes with the numbers, read-only.
    const link = await apiClient(t.url, owner.key).put('/api/v1/sites/shared-links', { site_id: owner.domain, name: 'Public' });
    const slug = new URL(link.body.url).searchParams.get('auth');
    const shared = await call('GET', `/app/api/share/${slug}/annotations`, {});
    expect(shared.body.annotations.map((a: { note: string }) => a.note)).toEqual(['Release 2.0 week']);
    expect((await call('POST', `/app/api/share/${slug}/annotations`, {}, { date: '2026-03-03', note: 'x' })).status).toBe(404);

    expect((await call('DELETE', `${path}/${added.body.id}`, ownerHeaders)).body).toEqual({ deleted: true });
  });
});
