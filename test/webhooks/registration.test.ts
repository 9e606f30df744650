import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockTeam } from '../../src/stores/meta/teams.js';
import { ManualClock } from '../support/manualClock.js';
import { type Account, bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { type IsolatedMetadata, isolatedMetadata } from './support/database.js';

const clock = new ManualClock(Date.parse('2026-03-01T12:00:00Z'));
let t: TestApp;
let metadata: IsolatedMetadata;
let account: Account;

beforeAll(async () => {
  metadata = await isolatedMetadata();
  t = await startTestApp({ clock, env: metadata.env });
  await t.app.webhooks.stop();
  account = await createAccount(t.app, { scopes: ['webhooks:write'] });
});
afterAll(async () => {
  await t.close();
  await metadata.dispose();
});

async function call(method: string, path: string, options: { key?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = bearer(options.key ?? account.key);
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${t.url}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const register = (body: unknown, key?: string) => call('POST', '/api/v1/webhooks', { body, key });

describe('webhook registration', () => {
  it('creates a webhook and shows its secret only in the creation response', async () => {
    const created = await register({ url: 'https://hooks.example.com/svc', event_types: ['site.created'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: 'https://hooks.example.com/svc', event_types: ['site.created'], state: 'sending', consecutive_failures: 0 });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    const listed = await call('GET', '/api/v1/webhooks');
    expect(listed.status).toBe(200);
    const fetched = await call('GET', `/api/v1/webhooks/${created.body.id}`);
    expect(fetched.status).toBe(200);
    for (const shown of [JSON.stringify(listed.body), JSON.stringify(fetched.body)]) {
      expect(shown).not.toContain(created.body.secret);
      expect(shown).not.toContain('whsec_');
    }
    expect(fetched.body).not.toHaveProperty('secret');
    expect(listed.body.webhooks.map((w: { id: number }) => w.id)).toContain(created.body.id);
  });

  it('treats an empty event_types as every type', async () => {
    const created = await register({ url: 'https://hooks.example.com/all', event_types: [] });
    expect(created.status).toBe(201);
    expect(created.body.event_types).toEqual([]);
  });

  it('refuses an unknown event type, naming the valid ones', async () => {
    const res = await register({ url: 'https://hooks.example.com/x', event_types: ['site.created', 'site.exploded'] });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_event_type');
    expect(res.body.error).toContain('"site.exploded"');
    for (const type of ['site.created', 'goal.converted', 'traffic.spike', 'traffic.drop', 'usage.over_limit', 'import.completed', 'import.failed']) {
      expect(res.body.error).toContain(type);
    }
  });

  it('requires https, allowing plain http only for localhost, 127.0.0.1 and [::1]', async () => {
    for (const url of ['http://localhost:9000/hook', 'http://127.0.0.1:9000/hook', 'http://[::1]:9000/hook']) {
      expect((await register({ url, event_types: [] })).status).toBe(201);
    }
    for (const url of ['http://hooks.example.com/hook', 'ftp://hooks.example.com/', 'not a url', 'http://127.0.0.2/hook']) {
      const res = await register({ url, event_types: [] });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_url');
    }
  });

  it('refuses private, link-local and metadata addresses written as literals', async () => {
    for (const url of [
      'https://10.0.0.5/hook',
      'https://169.254.169.254/latest',
      'https://[fd00::1]/hook',
      'https://192.168.1.1/',
      'https://[::ffff:127.0.0.1]/',
    ]) {
      const res = await register({ url, event_types: [] });
      expect(res.status, url).toBe(400);
      expect(res.body.error).toMatch(/address/);
    }
  });

  it('refuses malformed bodies with a sentence', async () => {
    expect((await register({ url: 'https://a.example.com', event_types: 'site.created' })).body.code).toBe('invalid_event_types');
    expect((await register({ url: 'https://a.example.com', event_types: [], secret: 'mine' })).body.code).toBe('unknown_field');
    expect((await register({ event_types: [] })).body.code).toBe('invalid_url');
    expect((await register([1, 2])).status).toBe(400);
  });

  it('updates the URL and event types, and deletes', async () => {
    const created = await register({ url: 'https://hooks.example.com/old', event_types: [] });
    const updated = await call('PATCH', `/api/v1/webhooks/${created.body.id}`, {
      body: { url: 'https://hooks.example.com/new', event_types: ['import.failed'] },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ url: 'https://hooks.example.com/new', event_types: ['import.failed'] });
    expect(updated.body).not.toHaveProperty('secret');
    expect((await call('PATCH', `/api/v1/webhooks/${created.body.id}`, { body: { url: 'http://example.com' } })).status).toBe(400);

    expect((await call('DELETE', `/api/v1/webhooks/${created.body.id}`)).status).toBe(204);
    expect((await call('GET', `/api/v1/webhooks/${created.body.id}`)).status).toBe(404);
    expect((await call('DELETE', `/api/v1/webhooks/${created.body.id}`)).status).toBe(404);
  });

  it('rotates the secret and says until when the old one stays valid', async () => {
    const created = await register({ url: 'https://hooks.example.com/rotate', event_types: [] });
    const rotated = await call('POST', `/api/v1/webhooks/${created.body.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect(rotated.body.previous_secret_valid_until).toBe(new Date(clock.now() + 3_600_000).toISOString());
    const fetched = await call('GET', `/api/v1/webhooks/${created.body.id}`);
    expect(JSON.stringify(fetched.body)).not.toContain('whsec_');
    expect(fetched.body.previous_secret_valid_until).toBe(rotated.body.previous_secret_valid_until);
  });

  it('stores secrets sealed, never as they were shown', async () => {
    const created = await register({ url: 'https://sealed.example.com/hook', event_types: [] });
    const rotated = await call('POST', `/api/v1/webhooks/${created.body.id}/rotate-secret`);
    const row = await t.app.meta.db.selectFrom('webhooks').select(['secret', 'previous_secret']).where('id', '=', created.body.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(created.body.secret.slice(6));
    expect(JSON.stringify(row)).not.toContain(rotated.body.secret.slice(6));
    expect(t.app.webhookSecrets.open(row.secret)).toBe(rotated.body.secret);
    expect(t.app.webhookSecrets.open(row.previous_secret!)).toBe(created.body.secret);
  });

  it('takes no body on its bodiless POSTs, even when the client labels the empty body as JSON', async () => {
    const created = await register({ url: 'https://hooks.example.com/bodiless', event_types: [] });
    const emptyJson = (path: string) => fetch(`${t.url}${path}`, { method: 'POST', headers: { ...bearer(account.key), 'content-type': 'application/json' } });
    expect((await emptyJson(`/api/v1/webhooks/${created.body.id}/rotate-secret`)).status).toBe(200);
    expect((await emptyJson(`/api/v1/webhooks/${created.body.id}/enable`)).status).toBe(200);
    const redeliver = await emptyJson('/api/v1/webhooks/deliveries/999999/redeliver');
    expect(redeliver.status).toBe(404);
    const create = await emptyJson('/api/v1/webhooks');
    expect(create.status).toBe(400);
    expect((await create.json()).code).toBe('invalid_body');
    const malformed = await fetch(`${t.url}/api/v1/webhooks`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/json' },
      body: '{"url":',
    });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error).toMatch(/JSON/i);
  });

  it("answers 404 for another team's webhook and for ids that are not numbers", async () => {
    const other = await createAccount(t.app);
    const created = await register({ url: 'https://hooks.example.com/mine', event_types: [] });
    expect((await call('GET', `/api/v1/webhooks/${created.body.id}`, { key: other.key })).status).toBe(404);
    expect((await call('DELETE', `/api/v1/webhooks/${created.body.id}`, { key: other.key })).status).toBe(404);
    expect((await call('GET', '/api/v1/webhooks/abc')).status).toBe(404);
    expect((await call('POST', '/api/v1/webhooks/deliveries/999999/redeliver')).status).toBe(404);
    const theirs = await call('GET', '/api/v1/webhooks', { key: other.key });
    expect(theirs.body.webhooks).toEqual([]);
  });

  it('requires the webhooks:write scope on every route', async () => {
    const reader = await createAccount(t.app, { scopes: ['stats:read', 'sites:read'] });
    const created = await register({ url: 'https://hooks.example.com/scoped', event_types: [] });
    const routes: Array<[string, string]> = [
      ['POST', '/api/v1/webhooks'],
      ['GET', '/api/v1/webhooks'],
      ['GET', `/api/v1/webhooks/${created.body.id}`],
      ['PATCH', `/api/v1/webhooks/${created.body.id}`],
      ['DELETE', `/api/v1/webhooks/${created.body.id}`],
      ['POST', `/api/v1/webhooks/${created.body.id}/enable`],
      ['POST', `/api/v1/webhooks/${created.body.id}/rotate-secret`],
      ['GET', `/api/v1/webhooks/${created.body.id}/deliveries`],
      ['POST', '/api/v1/webhooks/deliveries/1/redeliver'],
    ];
    for (const [method, path] of routes) {
      const res = await call(method, path, {
        key: reader.key,
        body: method === 'POST' || method === 'PATCH' ? { url: 'https://x.example.com', event_types: [] } : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toContain('webhooks:write');
    }
    const allScopes = await createAccount(t.app);
    expect((await call('GET', '/api/v1/webhooks', { key: allScopes.key })).status).toBe(200);
  });

  it('answers 402 for a locked team', async () => {
    const locked = await createAccount(t.app);
    await lockTeam(t.app.meta.db, locked.teamId, 'unpaid invoice', clock.now());
    expect((await call('GET', '/api/v1/webhooks', { key: locked.key })).status).toBe(402);
  });
});
