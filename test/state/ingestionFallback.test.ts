import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATE_UNAVAILABLE } from '../../src/state/fallbackCount.js';
import { collect, stored } from '../support/collect.js';
import { type Account, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { next, startTestRedis, type TestRedis } from './redisServer.js';

/** Commands Redis has run since the last CONFIG RESETSTAT, by name (INFO commandstats). */
async function commandCounts(admin: Redis): Promise<Record<string, number>> {
  const info = await admin.info('commandstats');
  const counts: Record<string, number> = {};
  for (const match of info.matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm)) counts[match[1] ?? ''] = Number(match[2]);
  return counts;
}

describe('ingestion with STATE_URL', () => {
  let redis: TestRedis;
  let t: TestApp;
  let account: Account;
  let admin: Redis;
  let ip = 0;
  const nextIp = () => `198.18.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`;
  const pageview = (path: string, extra: Record<string, unknown> = {}) => ({
    n: 'pageview',
    d: account.domain,
    u: `https://${account.domain}${path}`,
    ...extra,
  });
  const uuid = (n: number) => `5e0c8f3a-1b2d-4e5f-8a9b-${String(n).padStart(12, '0')}`;

  beforeAll(async () => {
    redis = await startTestRedis();
    admin = new Redis(redis.url, { maxRetriesPerRequest: null });
    // Its reconnection attempts while the test's Redis is stopped are expected.
    admin.on('error', () => {});
    t = await startTestApp({ env: { STATE_URL: redis.url, TRUSTED_PROXIES: '127.0.0.1' } });
    account = await createAccount(t.app);
  });
  afterAll(async () => {
    await t.close();
    admin.disconnect();
    await redis.stop();
  });

  it('keeps the rate, visits and idempotency keys in Redis: two scripts per event, one of them waited for; a key adds its SET NX', async () => {
    // The first event loads the script (EVALSHA answers NOSCRIPT, then EVAL); count after it.
    expect((await collect(t, pageview('/first'), { ip: nextIp() })).status).toBe(202);
    await admin.config('RESETSTAT');
    for (let i = 0; i < 20; i++) expect((await collect(t, pageview('/plain'), { ip: nextIp() })).status).toBe(202);
    const plain = await commandCounts(admin);
    await admin.config('RESETSTAT');
    for (let i = 0; i < 20; i++) expect((await collect(t, pageview('/keyed', { k: uuid(i) }), { ip: nextIp() })).status).toBe(202);
    // The same keys again: stored once.
    for (let i = 0; i < 20; i++) expect((await collect(t, pageview('/keyed', { k: uuid(i) }), { ip: nextIp() })).status).toBe(202);
    const keyed = await commandCounts(admin);
    // Scripts run (commands inside a script are counted by name as well, so only EVALSHA and EVAL
    // tell calls apart): each event takes its rate token (not waited for while the address's
    // bucket is far from empty, src/state/rateLimit.ts) and runs its visit's script; a repeated
    // key stops the event before its visit.
    const scripts = (counts: Record<string, number>) => (counts.evalsha ?? 0) + (counts.eval ?? 0);
    console.info(`Redis scripts per event: ${scripts(plain) / 20} without an idempotency key, ${scripts(keyed) / 40} with one`, { plain, keyed });
    expect(scripts(plain)).toBe(40);
    expect(scripts(keyed)).toBe(60);
    expect(await admin.exists(`svc:idem:${account.siteId}:${uuid(0)}`)).toBe(1);
    const rows = await stored<{ n: string }>(t, "SELECT count() AS n FROM events WHERE pathname = '/keyed'");
    expect(Number(rows[0]?.n)).toBe(20);
  });

  it('answers 202 while Redis is stopped, counting the events it accepted on its own state, and uses Redis again once it is back', async () => {
    const state = t.app.state;
    if (!state) throw new Error('STATE_URL is set, so the node has a state connection');
    const closed = next(state.client, 'close');
    await redis.stop();
    await closed;
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) {
      const res = await collect(t, pageview('/while-down', i % 2 === 0 ? { k: uuid(1_000 + i) } : {}), { ip: nextIp() });
      statuses.push(res.status);
      expect(res.headers.get('x-svc-dropped')).toBeNull();
    }
    expect(statuses.every((status) => status === 202)).toBe(true);
    // A retry while Redis is down is still caught by the node's own keys.
    expect((await collect(t, pageview('/while-down', { k: uuid(1_000) }), { ip: nextIp() })).status).toBe(202);
    const rows = await stored<{ n: string }>(t, "SELECT count() AS n FROM events WHERE pathname = '/while-down'");
    expect(Number(rows[0]?.n)).toBe(50);
    const counted = await stored<{ n: string }>(t, 'SELECT sum(value) AS n FROM ingest_counters WHERE site_id = {site:UInt64} AND reason = {reason:String}', {
      site: account.siteId,
      reason: STATE_UNAVAILABLE,
    });
    expect(Number(counted[0]?.n)).toBe(50);

    const ready = next(state.client, 'ready');
    await redis.start();
    await ready;
    await admin.ping();
    const address = nextIp();
    expect((await collect(t, pageview('/back'), { ip: address })).status).toBe(202);
    expect(await admin.exists(`svc:rate:${address}`)).toBe(1);
    expect(state.degraded).toBe(false);
  });
});
