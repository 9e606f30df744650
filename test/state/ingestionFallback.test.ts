import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATE_UNAVAILABLE } from '../../src/ingest/sharedState.js';
import { HELD_DUE_KEY } from '../../src/state/heldEngagements.js';
import { collect, stored } from '../support/collect.js';
import { type Account, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { next, startTestRedis, type TestRedis } from './redisServer.js';

/**
 * The commands clients send Redis while `run` runs, counted by name and the prefix of their first
 * key (`evalsha svc:visit`), as MONITOR shows them. Commands a script runs are shown as the
 * script's (source "lua") and left out: what is counted is what a node sent.
 */
async function commandsSent(admin: Redis, run: () => Promise<void>): Promise<Record<string, number>> {
  // A connection of its own (ioredis duplicates the admin's).
  const monitor = await admin.monitor();
  const counts: Record<string, number> = {};
  let marked = () => {};
  const mark = 'commands-sent-until-here';
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    const [name = '', ...rest] = args.map(String);
    // Housekeeping's script for held engagements runs on the node's timer, not per event.
    if (source === 'lua' || rest[2] === HELD_DUE_KEY) return;
    const command = name.toLowerCase();
    if (command === 'echo' && rest[0] === mark) return marked();
    const key = command === 'evalsha' || command === 'eval' ? rest[2] : rest[0];
    const label = `${command} ${/^svc:[a-z]+/.exec(key ?? '')?.[0] ?? key ?? ''}`.trim();
    counts[label] = (counts[label] ?? 0) + 1;
  });
  try {
    await run();
    // Everything sent before the mark has reached the monitor once the mark has.
    const seen = new Promise<void>((resolve) => {
      marked = resolve;
    });
    await admin.echo(mark);
    await seen;
  } finally {
    monitor.disconnect();
  }
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

  it('keeps the rate, visits and idempotency keys in Redis: one round trip per event waited for, with or without an idempotency key', async () => {
    // The first event loads the scripts (EVALSHA answers NOSCRIPT, then EVAL); count after it.
    expect((await collect(t, pageview('/first', { k: uuid(999) }), { ip: nextIp() })).status).toBe(202);
    const plain = await commandsSent(admin, async () => {
      for (let i = 0; i < 20; i++) expect((await collect(t, pageview('/plain'), { ip: nextIp() })).status).toBe(202);
    });
    const keyed = await commandsSent(admin, async () => {
      for (let i = 0; i < 20; i++) expect((await collect(t, pageview('/keyed', { k: uuid(i) }), { ip: nextIp() })).status).toBe(202);
    });
    // The same keys again: stored once.
    const repeated = await commandsSent(admin, async () => {
      for (let i = 0; i < 20; i++) expect((await collect(t, pageview('/keyed', { k: uuid(i) }), { ip: nextIp() })).status).toBe(202);
    });
    console.info('Redis commands sent for 20 events each', { plain, keyed, repeated });
    // Each event takes its rate token (sent without waiting while the address's bucket is far from
    // empty, src/state/rateLimit.ts; test/state/rateLimit.test.ts) and waits for one call: its
    // visit's script, which claims the event's key too (src/state/liveVisits.ts). A key this node
    // claimed already stops the event before its visit: one SET NX, so Redis learns of a key
    // claimed here while it was away.
    expect(plain).toEqual({ 'evalsha svc:rate': 20, 'evalsha svc:visit': 20 });
    expect(keyed).toEqual({ 'evalsha svc:rate': 20, 'evalsha svc:visit': 20 });
    expect(repeated).toEqual({ 'evalsha svc:rate': 20, 'set svc:idem': 20 });
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
