import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOMAIN_TRANSITION_MS } from '../../src/stores/meta/sites.js';
import { ManualClock } from '../support/manualClock.js';
import { createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { apiClient, q, testEnv } from './client.js';

const clock = new ManualClock(Date.parse('2026-03-01T12:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock, env: testEnv({ BASE_URL: 'https://stats.example.org' }) });
});
afterAll(() => t.close());

describe('sites', () => {
  it('creates, reads, lists, updates and deletes a site', async () => {
    const account = await createAccount(t.app);
    const api = apiClient(t.url, account.key);
    const created = await api.post('/api/v1/sites', { domain: 'https://www.Shop.Example.com/', timezone: 'Europe/Berlin' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ domain: 'shop.example.com', timezone: 'Europe/Berlin', custom_properties: [] });
    expect(created.body.tracker_script_configuration.outbound_links).toBe(false);

    const read = await api.get('/api/v1/sites/shop.example.com');
    expect(read.body).toEqual(created.body);

    const list = await api.get('/api/v1/sites');
    expect(list.body.sites.map((s: { domain: string }) => s.domain)).toEqual([account.domain, 'shop.example.com']);

    const updated = await api.put('/api/v1/sites/shop.example.com', { timezone: 'America/New_York', tracker_script_configuration: { outbound_links: true } });
    expect(updated.status).toBe(200);
    expect(updated.body.timezone).toBe('America/New_York');
    expect(updated.body.tracker_script_configuration.outbound_links).toBe(true);

    expect((await api.delete('/api/v1/sites/shop.example.com')).body).toEqual({ deleted: true });
    expect((await api.get('/api/v1/sites/shop.example.com')).status).toBe(404);
    // The domain is free again once deleted.
    expect((await api.post('/api/v1/sites', { domain: 'shop.example.com' })).body.timezone).toBe('Etc/UTC');
  });

  it('refuses a NUL character anywhere in a request with a 400 saying where', async () => {
    const account = await createAccount(t.app);
    const api = apiClient(t.url, account.key);
    const inBody = await api.post('/api/v1/sites', { domain: 'nul\u0000.example.com' });
    expect(inBody.status).toBe(400);
    expect(inBody.body.error).toMatch(/NUL character \(U\+0000\) at body\/domain/);
    const inPath = await api.delete(`/api/v1/sites/shared-links/%00${q({ site_id: account.domain })}`);
    expect(inPath.status).toBe(400);
    expect(inPath.body.error).toMatch(/at path\/name/);
  });

  it('publishes site.created in the outbox with the site', async () => {
    const account = await createAccount(t.app);
    const api = apiClient(t.url, account.key);
    await api.post('/api/v1/sites', { domain: 'outbox.example.com', timezone: 'Asia/Tokyo' });
    const rows = await t.app.meta.db
      .selectFrom('webhook_events')
      .selectAll()
      .where('team_id', '=', account.teamId)
      .where('type', '=', 'site.created')
      .execute();
    expect(rows.map((r) => JSON.parse(r.payload))).toContainEqual({ domain: 'outbox.example.com', timezone: 'Asia/Tokyo' });
  });

  it('renames a site and answers under both names for the transition period', async () => {
    const account = await createAccount(t.app);
    const api = apiClient(t.url, account.key);
    const renamed = await api.put(`/api/v1/sites/${account.domain}`, { domain: 'renamed.example.net' });
    expect(renamed.body.domain).toBe('renamed.example.net');
    expect((await api.get(`/api/v1/sites/${account.domain}`)).body.domain).toBe('renamed.example.net');
    // Nobody else may take the old name while it still answers.
    const other = apiClient(t.url, (await createAccount(t.app)).key);
    expect((await other.post('/api/v1/sites', { domain: account.domain })).status).toBe(400);
    clock.advance(DOMAIN_TRANSITION_MS + 1);
    expect((await api.get(`/api/v1/sites/${account.domain}`)).status).toBe(404);
    expect((await api.get('/api/v1/sites/renamed.example.net')).status).toBe(200);
    expect((await other.post('/api/v1/sites', { domain: account.domain })).status).toBe(200);
  });

  it('pages through sites with after, before and limit', async () => {
    const account = await createAccount(t.app);
    const api = apiClient(t.url, account.key);
    for (const n of [1, 2, 3, 4]) await api.post('/api/v1/sites', { domain: `page${n}-${account.teamId}.example.com` });
    const first = await api.get(`/api/v1/sites${q({ limit: 2 })}`);
    expect(first.body.sites).toHaveLength(2);
    expect(first.body.meta).toMatchObject({ before: null, limit: 2 });
    const second = await api.get(`/api/v1/sites${q({ limit: 2, after: first.body.meta.after })}`);
    expect(second.body.sites.map((s: { domain: string }) => s.domain)).toEqual([`page2-${account.teamId}.example.com`, `page3-${account.teamId}.example.com`]);
    expect(second.body.meta.before).not.toBeNull();
    const back = await api.get(`/api/v1/sites${q({ limit: 2, before: second.body.meta.before })}`);
    expect(back.body.sites).toEqual(first.body.sites);
    expect(back.body.meta.before).toBeNull();
    const third = await api.get(`/api/v1/sites${q({ limit: 2, after: second.body.meta.after })}`);
    expect(third.body.sites).toHaveLength(1);
    expect(third.body.meta.after).toBeNull();
    expect((await api.get(`/api/v1/sites${q({ limit: 0 })}`)).status).toBe(400);
    expect((await api.get(`/api/v1/sites${q({ after: 'x' })}`)).status).toBe(400);
  });

  it('lists the one team a key can see', async () => {
    const account = await createAccount(t.app);
    const res = await apiClient(t.url, account.key).get('/api/v1/sites/teams');
    expect(res.status).toBe(200);
    expect(res.body.teams).toEqual([{ id: String(account.teamId), name: expect.any(String), api_available: true }]);
  });

  it('validates payloads and names the field', async () => {
    const api = apiClient(t.url, (await createAccount(t.app)).key);
    const unknown = await api.post('/api/v1/sites', { domain: 'x.example.com', colour: 'red' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toContain('"colour"');
    const missing = await api.post('/api/v1/sites', { timezone: 'Etc/UTC' });
    expect(missing.body.error).toBe('Field "domain" is required.');
    expect((await api.post('/api/v1/sites', { domain: 'not a domain' })).body.code).toBe('invalid_domain');
    const withPath = await api.post('/api/v1/sites', { domain: 'https://www.path.example.com/shop' });
    expect(withPath.status).toBe(400);
    expect(withPath.body).toMatchObject({ code: 'invalid_domain', error: expect.stringContaining('give path.example.com alone') });
    expect((await api.post('/api/v1/sites', { domain: 'https://www.path.example.com/' })).body.domain).toBe('path.example.com');
    expect((await api.post('/api/v1/sites', { domain: 'tz.example.com', timezone: 'Mars/Base' })).body.code).toBe('invalid_timezone');
    const noFields = await api.get('/api/v1/sites');
    const own = noFields.body.sites[0].domain;
    expect((await api.put(`/api/v1/sites/${own}`, {})).body.error).toContain('at least one of');
    expect((await api.put(`/api/v1/sites/${own}`, { tracker_script_configuration: { outbound: true } })).body.error).toContain('"outbound"');
  });

  it("refuses a team other than the key's own", async () => {
    const account = await createAccount(t.app);
    const api = apiClient(t.url, account.key);
    expect((await api.post('/api/v1/sites', { domain: 'team.example.com', team_id: account.teamId + 1000 })).status).toBe(403);
    expect((await api.post('/api/v1/sites', { domain: 'team.example.com', team_id: String(account.teamId) })).status).toBe(200);
    expect((await api.get(`/api/v1/sites${q({ team_id: account.teamId + 1000 })}`)).status).toBe(404);
  });

  it("answers 404 alike for a missing site and another team's site", async () => {
    const mine = await createAccount(t.app);
    const theirs = await createAccount(t.app);
    const api = apiClient(t.url, mine.key);
    for (const [method, path, body] of [
      ['get', `/api/v1/sites/${theirs.domain}`, undefined],
      ['put', `/api/v1/sites/${theirs.domain}`, { timezone: 'Etc/UTC' }],
      ['delete', `/api/v1/sites/${theirs.domain}`, undefined],
      ['get', `/api/v1/sites/${theirs.domain}/snippet`, undefined],
    ] as const) {
      const foreign = await (api as any)[method](path, body);
      const missing = await (api as any)[method](path.replace(theirs.domain, 'missing.example.com'), body);
      expect(foreign).toEqual(missing);
      expect(foreign.status).toBe(404);
    }
  });

  it('needs sites:read to read and sites:provision to write', async () => {
    const reader = await createAccount(t.app, { scopes: ['sites:read'] });
    const stats = await createAccount(t.app, { scopes: ['stats:read'] });
    const write = await apiClient(t.url, reader.key).post('/api/v1/sites', { domain: 'scoped.example.com' });
    expect(write.status).toBe(403);
    expect(write.body.error).toContain('sites:provision');
    expect((await apiClient(t.url, reader.key).get('/api/v1/sites')).status).toBe(200);
    const read = await apiClient(t.url, stats.key).get(`/api/v1/sites/${stats.domain}`);
    expect(read.status).toBe(403);
    expect(read.body.error).toContain('sites:read');
  });
});

describe('tracker snippet', () => {
  it("renders the script under BASE_URL with the site's options and a pixel fallback", async () => {
    const account = await createAccount(t.app);
    const api = apiClient(t.url, account.key);
    const plain = await api.get(`/api/v1/sites/${account.domain}/snippet`);
    expect(plain.status).toBe(200);
    expect(plain.body.script_url).toBe('https://stats.example.org/js/script.js');
    expect(plain.body.snippet).toContain(`<script defer data-domain="${account.domain}" src="https://stats.example.org/js/script.js"></script>`);
    expect(plain.body.pixel).toContain(`https://stats.example.org/api/event/pixel.gif?d=${account.domain}`);
    expect(plain.body.snippet).toContain('<noscript><img');
    expect(plain.body.not_found_page_snippet).toBeNull();

    await api.put(`/api/v1/sites/${account.domain}`, {
      tracker_script_configuration: { outbound_links: true, file_downloads: true, revenue_tracking: true, hash_based_routing: true, track_404_pages: true },
    });
    const rich = await api.get(`/api/v1/sites/${account.domain}/snippet`);
    expect(rich.body.script_url).toBe('https://stats.example.org/js/script.file-downloads.hash.outbound-links.revenue.js');
    expect(rich.body.not_found_page_snippet).toContain('svc("404"');
  });
});
