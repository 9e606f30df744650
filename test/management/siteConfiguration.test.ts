import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/accounts/passwords.js';
import { loadSiteShields } from '../../src/stores/meta/shields.js';
import { includedClassifications } from '../../src/stores/meta/siteSettings.js';
import { type Account, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { apiClient, q, testEnv } from './client.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: testEnv({ BASE_URL: 'https://stats.example.org' }) });
});
afterAll(() => t.close());

async function setup(scopes?: string[]): Promise<{ account: Account; api: ReturnType<typeof apiClient> }> {
  const account = await createAccount(t.app, { scopes });
  return { account, api: apiClient(t.url, account.key) };
}

describe('goals', () => {
  it('finds or creates event, page and scroll goals, lists newest first and deletes', async () => {
    const { account, api } = await setup();
    const site_id = account.domain;
    const signup = await api.put('/api/v1/sites/goals', { site_id, goal_type: 'event', event_name: 'Signup' });
    expect(signup.status).toBe(200);
    expect(signup.body).toMatchObject({ goal_type: 'event', event_name: 'Signup', page_path: null, display_name: 'Signup', domain: site_id, currency: null });
    const again = await api.put('/api/v1/sites/goals', { site_id, goal_type: 'event', event_name: 'Signup' });
    expect(again.body.id).toBe(signup.body.id);

    const purchase = await api.put('/api/v1/sites/goals', { site_id, goal_type: 'event', event_name: 'Purchase', currency: 'eur', display_name: 'Bought' });
    expect(purchase.body).toMatchObject({ currency: 'EUR', display_name: 'Bought' });
    const otherCurrency = await api.put('/api/v1/sites/goals', { site_id, goal_type: 'event', event_name: 'Purchase', currency: 'USD' });
    expect(otherCurrency.status).toBe(400);
    expect(otherCurrency.body.error).toContain('EUR');

    const page = await api.put('/api/v1/sites/goals', { site_id, goal_type: 'page', page_path: 'blog/**' });
    expect(page.body).toMatchObject({ goal_type: 'page', page_path: '/blog/**', display_name: 'Visit /blog/**', scroll_threshold: -1 });
    const scroll = await api.put('/api/v1/sites/goals', { site_id, goal_type: 'page', page_path: '/blog/**', scroll_threshold: 75 });
    expect(scroll.body).toMatchObject({ goal_type: 'scroll', display_name: 'Scroll 75% on /blog/**', scroll_threshold: 75 });
    expect(scroll.body.id).not.toBe(page.body.id);

    const list = await api.get(`/api/v1/sites/goals${q({ site_id })}`);
    expect(list.body.goals.map((g: { display_name: string }) => g.display_name)).toEqual(['Scroll 75% on /blog/**', 'Visit /blog/**', 'Bought', 'Signup']);
    const firstPage = await api.get(`/api/v1/sites/goals${q({ site_id, limit: 3 })}`);
    const nextPage = await api.get(`/api/v1/sites/goals${q({ site_id, limit: 3, after: firstPage.body.meta.after })}`);
    expect(nextPage.body.goals.map((g: { display_name: string }) => g.display_name)).toEqual(['Signup']);

    expect((await api.delete(`/api/v1/sites/goals/${signup.body.id}${q({ site_id })}`)).body).toEqual({ deleted: true });
    const gone = await api.delete(`/api/v1/sites/goals/${signup.body.id}`, { site_id });
    expect(gone).toEqual({ status: 404, body: { error: 'Goal could not be found.', code: 'not_found' } });
  });

  it('validates goal payloads', async () => {
    const { account, api } = await setup();
    const site_id = account.domain;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ site_id, goal_type: 'event' }, 'event_name'],
      [{ site_id, goal_type: 'event', event_name: 'engagement' }, 'reserved'],
      [{ site_id, goal_type: 'event', event_name: 'x', page_path: '/a' }, 'page_path'],
      [{ site_id, goal_type: 'page', page_path: '/a', currency: 'EUR' }, 'currency'],
      [{ site_id, goal_type: 'event', event_name: 'x', currency: 'XYZ1' }, 'ISO 4217'],
      [{ site_id, goal_type: 'page', page_path: '/a', scroll_threshold: 101 }, 'scroll_threshold'],
      [{ site_id, goal_type: 'funnel', event_name: 'x' }, 'goal_type'],
      [{ site_id, goal_type: 'event', event_name: 'x', custom: 1 }, '"custom"'],
    ];
    for (const [body, mention] of cases) {
      const res = await api.put('/api/v1/sites/goals', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toContain(mention);
    }
    await api.put('/api/v1/sites/goals', { site_id, goal_type: 'event', event_name: 'A', display_name: 'Same' });
    const clash = await api.put('/api/v1/sites/goals', { site_id, goal_type: 'event', event_name: 'B', display_name: 'Same' });
    expect(clash.body.code).toBe('goal_name_taken');
  });
});

describe('funnels', () => {
  it('creates a funnel from goals, finds it again, lists and deletes it', async () => {
    const { account, api } = await setup();
    const site_id = account.domain;
    const visit = await api.put('/api/v1/sites/goals', { site_id, goal_type: 'page', page_path: '/pricing' });
    const signup = await api.put('/api/v1/sites/goals', { site_id, goal_type: 'event', event_name: 'Signup' });
    const created = await api.put('/api/v1/sites/funnels', { site_id, name: 'Signup flow', steps: [visit.body.id, 'Signup'] });
    expect(created.status).toBe(200);
    expect(created.body.steps).toEqual([
      { goal_id: visit.body.id, display_name: 'Visit /pricing' },
      { goal_id: signup.body.id, display_name: 'Signup' },
    ]);
    const again = await api.put('/api/v1/sites/funnels', { site_id, name: 'Signup flow', steps: ['Visit /pricing', signup.body.id] });
    expect(again.body.id).toBe(created.body.id);
    const different = await api.put('/api/v1/sites/funnels', { site_id, name: 'Signup flow', steps: [signup.body.id, visit.body.id] });
    expect(different.status).toBe(409);

    expect((await api.get(`/api/v1/sites/funnels${q({ site_id })}`)).body.funnels).toEqual([created.body]);
    expect((await api.delete(`/api/v1/sites/funnels/${created.body.id}${q({ site_id })}`)).body).toEqual({ deleted: true });
    expect((await api.get(`/api/v1/sites/funnels${q({ site_id })}`)).body.funnels).toEqual([]);
  });

  it('refuses too few, too many, repeated or unknown steps, and drops funnels whose goal is deleted', async () => {
    const { account, api } = await setup();
    const site_id = account.domain;
    const ids: number[] = [];
    for (let n = 0; n < 9; n += 1) ids.push((await api.put('/api/v1/sites/goals', { site_id, goal_type: 'event', event_name: `E${n}` })).body.id);
    expect((await api.put('/api/v1/sites/funnels', { site_id, name: 'f', steps: [ids[0]] })).body.error).toContain('at least 2');
    expect((await api.put('/api/v1/sites/funnels', { site_id, name: 'f', steps: ids })).body.error).toContain('at most 8');
    expect((await api.put('/api/v1/sites/funnels', { site_id, name: 'f', steps: [ids[0], ids[0]] })).body.error).toContain('twice');
    expect((await api.put('/api/v1/sites/funnels', { site_id, name: 'f', steps: [ids[0], 'Nope'] })).body.error).toContain('not a goal');
    const ok = await api.put('/api/v1/sites/funnels', { site_id, name: 'f', steps: ids.slice(0, 8) });
    expect(ok.status).toBe(200);
    await api.delete(`/api/v1/sites/goals/${ids[3]}${q({ site_id })}`);
    expect((await api.get(`/api/v1/sites/funnels${q({ site_id })}`)).body.funnels).toEqual([]);
  });
});

describe('custom properties', () => {
  it('adds idempotently, lists sorted, deletes and enforces the name length', async () => {
    const { account, api } = await setup();
    const site_id = account.domain;
    for (const property of ['plan', 'author', 'plan'])
      expect((await api.put('/api/v1/sites/custom-props', { site_id, property })).body).toEqual({ created: true });
    expect((await api.get(`/api/v1/sites/custom-props${q({ site_id })}`)).body).toEqual({ custom_properties: [{ property: 'author' }, { property: 'plan' }] });
    expect((await api.get(`/api/v1/sites/${site_id}`)).body.custom_properties).toEqual(['author', 'plan']);
    expect((await api.delete(`/api/v1/sites/custom-props/plan${q({ site_id })}`)).body).toEqual({ deleted: true });
    expect((await api.delete(`/api/v1/sites/custom-props/plan${q({ site_id })}`)).body).toEqual({ deleted: true });
    expect((await api.put('/api/v1/sites/custom-props', { site_id, property: 'x'.repeat(301) })).status).toBe(400);
  });
});

describe('shared links', () => {
  it('finds or creates by name, hashes the password, lists and deletes', async () => {
    const { account, api } = await setup();
    const site_id = account.domain;
    const open = await api.put('/api/v1/sites/shared-links', { site_id, name: 'Public' });
    expect(open.body).toEqual({
      name: 'Public',
      url: expect.stringMatching(new RegExp(`^https://stats\\.example\\.org/share/${site_id}\\?auth=[A-Za-z0-9_-]{22}$`)),
      password_protected: false,
    });
    expect((await api.put('/api/v1/sites/shared-links', { site_id, name: 'Public' })).body).toEqual(open.body);
    const locked = await api.put('/api/v1/sites/shared-links', { site_id, name: 'Board', password: 'correct horse' });
    expect(locked.body.password_protected).toBe(true);
    const row = await t.app.meta.db.selectFrom('shared_links').selectAll().where('name', '=', 'Board').executeTakeFirstOrThrow();
    expect(row.password_hash).not.toContain('correct horse');
    expect(await verifyPassword('correct horse', row.password_hash!)).toBe(true);
    expect((await api.put('/api/v1/sites/shared-links', { site_id, name: 'Short', password: 'short' })).status).toBe(400);

    expect((await api.get(`/api/v1/sites/shared-links${q({ site_id })}`)).body.shared_links.map((l: { name: string }) => l.name)).toEqual(['Public', 'Board']);
    expect((await api.delete(`/api/v1/sites/shared-links/Board${q({ site_id })}`)).body).toEqual({ deleted: true });
    expect((await api.delete(`/api/v1/sites/shared-links/Board${q({ site_id })}`)).status).toBe(404);
  });
});

describe('shields and classifications', () => {
  it('adds, normalises, lists and removes rules of every kind, as ingestion reads them', async () => {
    const { account, api } = await setup();
    const site_id = account.domain;
    const ip = await api.put('/api/v1/sites/shields/ip', { site_id, value: '203.0.113.0/24', description: 'office' });
    expect(ip.body).toMatchObject({ value: '203.0.113.0/24', description: 'office' });
    expect((await api.put('/api/v1/sites/shields/ip', { site_id, value: '2001:DB8::1' })).body.value).toBe('2001:db8::1');
    expect((await api.put('/api/v1/sites/shields/ip', { site_id, value: '203.0.113.0/24' })).body.id).toBe(ip.body.id);
    expect((await api.put('/api/v1/sites/shields/country', { site_id, value: 'de' })).body.value).toBe('DE');
    expect((await api.put('/api/v1/sites/shields/page', { site_id, value: '/admin/**' })).status).toBe(200);
    expect((await api.put('/api/v1/sites/shields/hostname', { site_id, value: '*.Example.com' })).body.value).toBe('*.example.com');

    for (const [kind, value] of [
      ['ip', '300.1.1.1'],
      ['ip', '10.0.0.0/33'],
      ['country', 'XX'],
      ['page', 'admin'],
      ['hostname', 'exa mple.com'],
    ]) {
      const res = await api.put(`/api/v1/sites/shields/${kind}`, { site_id, value });
      expect(res.status, `${kind} ${value}`).toBe(400);
      expect(res.body.error).toContain(value);
    }
    expect((await api.put('/api/v1/sites/shields/asn', { site_id, value: '1' })).status).toBe(404);

    expect(await loadSiteShields(t.app.meta.db, account.siteId)).toEqual({
      ipRules: ['203.0.113.0/24', '2001:db8::1'],
      countryRules: ['DE'],
      pageRules: ['/admin/**'],
      hostnameRules: ['*.example.com'],
    });
    const all = await api.get(`/api/v1/sites/shields${q({ site_id })}`);
    expect(Object.keys(all.body)).toEqual(['ip', 'country', 'page', 'hostname']);
    expect((await api.get(`/api/v1/sites/shields/ip${q({ site_id })}`)).body.rules).toHaveLength(2);
    expect((await api.delete(`/api/v1/sites/shields/ip/${ip.body.id}${q({ site_id })}`)).body).toEqual({ deleted: true });
    expect((await api.delete(`/api/v1/sites/shields/ip/${ip.body.id}${q({ site_id })}`)).status).toBe(404);
    expect((await loadSiteShields(t.app.meta.db, account.siteId)).ipRules).toEqual(['2001:db8::1']);
  });

  it('caps rules per kind', async () => {
    const { account, api } = await setup();
    for (let n = 0; n < 30; n += 1) expect((await api.put('/api/v1/sites/shields/page', { site_id: account.domain, value: `/p${n}` })).status).toBe(200);
    expect((await api.put('/api/v1/sites/shields/page', { site_id: account.domain, value: '/p30' })).body.code).toBe('too_many_shield_rules');
  });

  it('puts classified traffic back into reports', async () => {
    const { account, api } = await setup();
    const site_id = account.domain;
    expect((await api.get(`/api/v1/sites/classifications${q({ site_id })}`)).body.included).toEqual([]);
    const set = await api.put('/api/v1/sites/classifications', { site_id, included: ['referrer_spam', 'bot'] });
    expect(set.body.included).toEqual(['bot', 'referrer_spam']);
    expect(await includedClassifications(t.app.meta.db, account.siteId)).toEqual(['bot', 'referrer_spam']);
    const bad = await api.put('/api/v1/sites/classifications', { site_id, included: ['humans'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('"humans"');
  });
});

describe('scopes and isolation across the site configuration routes', () => {
  it("answers identically for another team's site and a missing one, and checks scopes", async () => {
    const { api } = await setup();
    const { account: other } = await setup();
    const routes: Array<[string, string, Record<string, unknown> | undefined]> = [
      ['get', '/api/v1/sites/goals?site_id=DOMAIN', undefined],
      ['put', '/api/v1/sites/goals', { site_id: 'DOMAIN', goal_type: 'event', event_name: 'x' }],
      ['delete', '/api/v1/sites/goals/1?site_id=DOMAIN', undefined],
      ['get', '/api/v1/sites/funnels?site_id=DOMAIN', undefined],
      ['put', '/api/v1/sites/funnels', { site_id: 'DOMAIN', name: 'f', steps: [1, 2] }],
      ['delete', '/api/v1/sites/funnels/1?site_id=DOMAIN', undefined],
      ['get', '/api/v1/sites/custom-props?site_id=DOMAIN', undefined],
      ['put', '/api/v1/sites/custom-props', { site_id: 'DOMAIN', property: 'p' }],
      ['delete', '/api/v1/sites/custom-props/p?site_id=DOMAIN', undefined],
      ['get', '/api/v1/sites/shared-links?site_id=DOMAIN', undefined],
      ['put', '/api/v1/sites/shared-links', { site_id: 'DOMAIN', name: 'n' }],
      ['delete', '/api/v1/sites/shared-links/n?site_id=DOMAIN', undefined],
      ['get', '/api/v1/sites/shields?site_id=DOMAIN', undefined],
      ['put', '/api/v1/sites/shields/ip', { site_id: 'DOMAIN', value: '10.0.0.1' }],
      ['delete', '/api/v1/sites/shields/ip/1?site_id=DOMAIN', undefined],
      ['get', '/api/v1/sites/classifications?site_id=DOMAIN', undefined],
      ['put', '/api/v1/sites/classifications', { site_id: 'DOMAIN', included: [] }],
    ];
    const fill = (value: unknown, domain: string) => JSON.parse(JSON.stringify(value ?? null).replaceAll('DOMAIN', domain)) ?? undefined;
    const reader = apiClient(t.url, (await createAccount(t.app, { scopes: ['sites:read'] })).key);
    const statsOnly = apiClient(t.url, (await createAccount(t.app, { scopes: ['stats:read'] })).key);
    for (const [method, path, body] of routes) {
      const foreign = await (api as any)[method](path.replace('DOMAIN', other.domain), fill(body, other.domain));
      const missing = await (api as any)[method](path.replace('DOMAIN', 'missing.example.com'), fill(body, 'missing.example.com'));
      expect(foreign, `${method} ${path}`).toEqual(missing);
      expect(foreign.status).toBe(404);
      const scoped = method === 'get' ? statsOnly : reader;
      const refused = await (scoped as any)[method](path.replace('DOMAIN', other.domain), fill(body, other.domain));
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.error).toContain(method === 'get' ? 'sites:read' : 'sites:provision');
    }
  });
});
