import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyKeys } from '../../src/ingest/idempotency.js';
import { SessionTracker, type VisitEvent } from '../../src/ingest/liveVisits/index.js';
import { OrphanEngagements } from '../../src/ingest/orphans.js';
import { DUPLICATE } from '../../src/ingest/pipeline.js';
import type { VisitAttributes } from '../../src/ingest/rows.js';
import { SharedHeldEngagements } from '../../src/state/heldEngagements.js';
import { SharedIdempotencyKeys } from '../../src/state/idempotency.js';
import { SharedLiveVisits, VISITS_WARM_KEY, visitKey } from '../../src/state/liveVisits.js';
import { SharedState } from '../../src/state/redis.js';
import { next, startTestRedis, type TestRedis } from './redisServer.js';

const silent = { warn() {}, info() {} };
const T0 = Date.parse('2026-06-03T09:00:00Z');
const ATTRIBUTES: VisitAttributes = {
  referrer: '',
  referrer_source: '',
  click_id_param: '',
  utm_medium: '',
  utm_source: '',
  utm_campaign: '',
  utm_content: '',
  utm_term: '',
  channel: 'Direct',
  country_code: 'NL',
  subdivision1_code: '',
  subdivision2_code: '',
  city: '',
  screen_size: 'Mobile',
  device: 'Mobile',
  operating_system: 'iOS',
  operating_system_version: '18.1',
  browser: 'Safari',
  browser_version: '18.1',
  language: 'nl',
};

/** One ingest node's per-event state: its own connection, live visits and idempotency keys (as src/ingest/ingestion.ts builds them). */
function node(url: string) {
  const state = new SharedState(url, silent);
  // These tests are about claims, not the command timeout (test/state/ingestionFallback.test.ts).
  state.client.options.commandTimeout = 5_000;
  const visits = new SharedLiveVisits(state, () => new SessionTracker(), new SharedHeldEngagements(state, new OrphanEngagements()), { log: silent });
  return { state, visits, keys: new SharedIdempotencyKeys(state, new IdempotencyKeys(), visits) };
}
type Node = ReturnType<typeof node>;

const ids = (id: string) => ({ current: id, [Symbol.iterator]: () => [id][Symbol.iterator]() });
const pageview = (siteId: number, userId: string, at: number, pathname: string): VisitEvent => ({
  siteId,
  userId,
  timestamp: at,
  name: 'pageview',
  hostname: 'example.com',
  pathname,
  interactive: true,
  attributes: ATTRIBUTES,
  props: {},
  classification: '',
});

/** The visit step of a keyed pageview on a node, as src/ingest/pipeline.ts runs it. */
function recordKeyed(on: Node, event: VisitEvent, key: string) {
  const claiming = on.keys.claimingVisits(event.siteId, key, event.timestamp);
  if (!claiming) throw new Error('Redis answers, so the visit step claims the key');
  return claiming.record(event, ids(event.userId));
}

describe('an idempotency key claimed by the visit script', () => {
  let redis: TestRedis;
  let admin: Redis;
  let a: Node;
  let b: Node;
  let c: Node;

  beforeAll(async () => {
    redis = await startTestRedis();
    admin = new Redis(redis.url);
    // Its reconnection attempts once the last test stops Redis are expected.
    admin.on('error', () => {});
    [a, b, c] = [node(redis.url), node(redis.url), node(redis.url)];
    for (const each of [a, b, c]) expect(await each.state.ready()).toBe(true);
    // Redis holds the live visits already (no read from a store first).
    await admin.set(VISITS_WARM_KEY, String(T0));
  });
  afterAll(async () => {
    await a?.state.close();
    await b?.state.close();
    await c?.state.close();
    admin?.disconnect();
    await redis?.stop();
  });

  const pageviews = async (siteId: number, userId: string) => JSON.parse((await admin.get(visitKey(siteId, userId))) ?? '[]')[4];

  it('one key sent to two nodes at once changes the visit once: the other node gets DUPLICATE and the visit is untouched', async () => {
    for (let round = 0; round < 25; round++) {
      const userId = String(1_000 + round);
      const key = `7d3c1b2a-0f9e-4d8c-a7b6-${String(round).padStart(12, '0')}`;
      // A new visitor: only one of the two may start the visit.
      const first = await Promise.all([a, b].map((on) => recordKeyed(on, pageview(1, userId, T0, '/landing'), key)));
      expect(first.filter((answer) => answer === DUPLICATE)).toHaveLength(1);
      expect(await pageviews(1, userId)).toBe(1);
      // A visit in progress: only one of the two may count the pageview.
      const again = `${key}-next`;
      const second = await Promise.all([b, a].map((on) => recordKeyed(on, pageview(1, userId, T0 + 10_000, '/next'), again)));
      expect(second.filter((answer) => answer === DUPLICATE)).toHaveLength(1);
      expect(await pageviews(1, userId)).toBe(2);
      // Retried later through a third node, which has not seen the key: a duplicate, no pageview counted.
      expect(await recordKeyed(c, pageview(1, userId, T0 + 20_000, '/next'), again)).toBe(DUPLICATE);
      expect(await pageviews(1, userId)).toBe(2);
    }
  });

  it('an engagement whose key was used does not keep the visit alive', async () => {
    await recordKeyed(a, pageview(2, '2001', T0, '/article'), 'engaged-once');
    const touch = (on: Node, at: number) => on.keys.claimingVisits(2, 'engaged-key', at)?.touch(2, ids('2001'), at);
    const touched = await touch(a, T0 + 60_000);
    expect(touched).toMatchObject({ user_id: '2001', pageviews: 1 });
    const lastSeen = JSON.parse((await admin.get(visitKey(2, '2001'))) ?? '[]')[3];
    expect(await touch(b, T0 + 120_000)).toBe(DUPLICATE);
    // The duplicate's node learnt the key as well (for while Redis does not answer): its pipeline asks `claim` next time.
    expect(b.keys.claimingVisits(2, 'engaged-key', T0 + 180_000)).toBeUndefined();
    expect(JSON.parse((await admin.get(visitKey(2, '2001'))) ?? '[]')[3]).toBe(lastSeen);
  });

  it('claims the key for the idempotency window, and a key this node already knows is claimed without the visit', async () => {
    expect(await recordKeyed(a, pageview(3, '3001', T0, '/'), 'window-key')).not.toBe(DUPLICATE);
    const ttl = await admin.pttl('svc:idem:3:window-key');
    expect(ttl).toBeGreaterThan(86_400_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(86_400_000);
    // Node A learnt the key: its pipeline asks `claim` (one SET NX) and never reaches the visit.
    expect(a.keys.claimingVisits(3, 'window-key', T0 + 1_000)).toBeUndefined();
    expect(await a.keys.claim(3, 'window-key', T0 + 1_000, true)).toBe(true);
  });

  it('claims on this node’s own keys, and records on its own visits, when Redis stops answering mid-event', async () => {
    const claiming = a.keys.claimingVisits(4, 'outage-key', T0);
    if (!claiming) throw new Error('Redis answers, so the visit step claims the key');
    const closed = next(a.state.client, 'close');
    await redis.stop();
    await closed;
    expect(await claiming.record(pageview(4, '4001', T0, '/'), ids('4001'))).toMatchObject({ session: { user_id: '4001', pageviews: 1 } });
    // A retry reaching this node while Redis is away is caught by its own keys.
    expect(a.keys.claimingVisits(4, 'outage-key', T0 + 1_000)).toBeUndefined();
    expect(await a.keys.claim(4, 'outage-key', T0 + 1_000, true)).toBe(true);
  });
});
