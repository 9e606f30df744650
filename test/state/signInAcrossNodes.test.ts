import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_LIMIT } from '../../src/accounts/signInLimiter.js';
import { buildHttpServer } from '../../src/api/httpServer.js';
import { findOrCreateSharedLink } from '../../src/management/sharedLinks.js';
import { registerSite } from '../../src/management/sites.js';
import { queryEngineDeps } from '../../src/queryEngine.js';
import { SharedState } from '../../src/state/redis.js';
import { signInLimiterFor } from '../../src/state/signInLimiter.js';
import { createUserWithTeam } from '../../src/stores/meta/users.js';
import { startTestApp, type TestApp } from '../support/testApp.js';
import { startTestRedis, type TestRedis } from './redisServer.js';

/**
 * Failed sign-ins and shared-link passwords counted once across nodes (docs/scaling.md "Shared
 * state (Redis)"): node A is the whole service with STATE_URL, node B a second web node's HTTP
 * server on the same stores with its own connection to the same Redis, as a node built by
 * src/app.ts would have. Each node alone sees half the failures, under the limit.
 */
describe('the sign-in limiter across two web nodes sharing Redis', () => {
  let redis: TestRedis;
  let t: TestApp;
  let stateB: SharedState;
  let nodeB: FastifyInstance;
  let urls: [string, string];

  beforeAll(async () => {
    redis = await startTestRedis();
    t = await startTestApp({ env: { STATE_URL: redis.url } });
    stateB = new SharedState(redis.url, { warn() {}, info() {} });
    expect(await stateB.ready()).toBe(true);
    const app = t.app;
    nodeB = buildHttpServer({
      config: app.config,
      clock: app.clock,
      log: app.http.log,
      roles: ['web'],
      meta: app.meta,
      events: app.events,
      ingestion: null,
      buildEngine: () => queryEngineDeps(app),
      imports: app.imports,
      exports: app.exports,
      webhookSecrets: app.webhookSecrets,
      mailer: null,
      state: null,
      signInLimiter: signInLimiterFor(stateB),
      siteChanged() {},
    });
    urls = [t.url, await nodeB.listen({ port: 0, host: '127.0.0.1' })];
  });
  afterAll(async () => {
    await nodeB?.close();
    await stateB?.close();
    await t?.close();
    await redis?.stop();
  });

  const post = (url: string, path: string, body: object) =>
    fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('refuses an account’s sign-in on either node once its failures on both reach the limit', async () => {
    await createUserWithTeam(t.app.meta.db, { email: 'shared-limit@example.com', name: 'Shared Limit', password: 'correct horse battery' }, t.app.clock.now());
    const attempt = (node: number, password: string) => post(urls[node % 2] as string, '/app/api/sign-in', { email: 'shared-limit@example.com', password });
    for (let i = 0; i < SIGN_IN_LIMIT.perAccount; i++) expect((await attempt(i, 'wrong password')).status).toBe(401);
    for (const node of [0, 1]) {
      // Even the right password: the limit is asked before the password is checked.
      const limited = await attempt(node, 'correct horse battery');
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await limited.json()).code).toBe('too_many_attempts');
    }
  });

  it('refuses a shared link’s password on either node once wrong guesses on both reach the limit', async () => {
    const now = t.app.clock.now();
    const { teamId } = await createUserWithTeam(t.app.meta.db, { email: 'shares@example.com', name: 'Shares' }, now);
    const site = await registerSite(t.app.meta.db, { teamId, domain: 'shared-limit.example.com', timezone: 'Etc/UTC' }, now);
    const { link } = await findOrCreateSharedLink(t.app.meta.db, { siteId: site.id, name: 'Board', password: 'board password' }, now);
    const guess = (node: number, password: string) => post(urls[node % 2] as string, `/app/api/share/${link.slug}/unlock`, { password });
    for (let i = 0; i < SIGN_IN_LIMIT.perAccount; i++) expect((await guess(i, 'not the password')).status).toBe(403);
    for (const node of [0, 1]) {
      const limited = await guess(node, 'board password');
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});
