import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignInLimiter, SIGN_IN_LIMIT } from '../../src/accounts/signInLimiter.js';
import { IdempotencyKeys } from '../../src/ingest/idempotency.js';
import { SessionTracker } from '../../src/ingest/liveVisits/index.js';
import { OrphanEngagements } from '../../src/ingest/orphans.js';
import { AddressRateLimiter } from '../../src/ingest/rateLimiter.js';
import { SharedHeldEngagements } from '../../src/state/heldEngagements.js';
import { SharedIdempotencyKeys } from '../../src/state/idempotency.js';
import { SharedLiveVisits } from '../../src/state/liveVisits.js';
import { SharedRateLimiter } from '../../src/state/rateLimit.js';
import { SharedState } from '../../src/state/redis.js';
import { sharedSignInLimiter } from '../../src/state/signInLimiter.js';
import { ManualClock } from '../support/manualClock.js';
import { next, startTestRedis, type TestRedis } from './redisServer.js';

describe('idempotency keys, sign-in limits and the fall-back to local state, shared in Redis', () => {
  let redis: TestRedis;
  const states: SharedState[] = [];
  const logged: string[] = [];
  const log = { warn: (_: object, msg: string) => logged.push(`warn ${msg}`), info: (_: object, msg: string) => logged.push(`info ${msg}`) };
  let wall = 0;
  const open = async () => {
    const state = new SharedState(redis.url, log, () => wall);
    states.push(state);
    expect(await state.ready()).toBe(true);
    return state;
  };

  /** A node's keys, beside its live visits (whose script claims a committed event's key). */
  const idempotencyKeys = (state: SharedState) =>
    new SharedIdempotencyKeys(
      state,
      new IdempotencyKeys(),
      new SharedLiveVisits(state, () => new SessionTracker(), new SharedHeldEngagements(state, new OrphanEngagements()), { log }),
    );

  beforeAll(async () => {
    redis = await startTestRedis();
  });
  afterAll(async () => {
    for (const state of states) await state.close();
    await redis.stop();
  });

  it('stores a key claimed at once through two nodes once', async () => {
    const a = idempotencyKeys(await open());
    const b = idempotencyKeys(await open());
    const at = Date.parse('2025-03-01T12:00:00Z');
    for (let round = 0; round < 50; round++) {
      const key = `3f1c9a52-7b0e-4c55-9f63-${String(round).padStart(12, '0')}`;
      const repeats = await Promise.all([a.claim(7, key, at, true), b.claim(7, key, at, true), a.claim(7, key, at, true), b.claim(7, key, at, true)]);
      expect(repeats.filter((repeat) => !repeat)).toHaveLength(1);
      // Another site's key of the same text is its own.
      expect(await b.claim(8, key, at, true)).toBe(false);
    }
    const ttl = await states[0]?.client.pttl('svc:idem:7:3f1c9a52-7b0e-4c55-9f63-000000000000');
    expect(ttl).toBeGreaterThan(86_400_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(86_400_000);
  });

  it('asks without remembering for a debug request', async () => {
    const a = idempotencyKeys(await open());
    const key = '11111111-2222-4333-8444-555555555555';
    expect(await a.claim(3, key, 0, false)).toBe(false);
    expect(await a.claim(3, key, 0, false)).toBe(false);
    expect(await a.claim(3, key, 0, true)).toBe(false);
    expect(await a.claim(3, key, 0, false)).toBe(true);
  });

  it('limits sign-ins across nodes: failures on one count on the other', async () => {
    const [stateA, stateB] = [await open(), await open()];
    if (!stateA || !stateB) throw new Error('unreachable');
    const nodeA = sharedSignInLimiter(stateA, createSignInLimiter());
    const nodeB = sharedSignInLimiter(stateB, createSignInLimiter());
    const now = Date.parse('2025-03-01T12:00:00Z');
    const keys: [string, number][] = [
      ['email:someone@example.com', SIGN_IN_LIMIT.perAccount],
      ['address:192.0.2.1', SIGN_IN_LIMIT.perClient],
    ];
    for (let i = 0; i < SIGN_IN_LIMIT.perAccount; i++) {
      expect(await (i % 2 === 0 ? nodeA : nodeB).retryAfter(keys, now + i)).toBe(0);
      await (i % 2 === 0 ? nodeA : nodeB).failed(['email:someone@example.com', 'address:192.0.2.1'], now + i);
    }
    // Ten failures, five on each node: each node alone would still allow more.
    const wait = await nodeB.retryAfter(keys, now + 1_000);
    expect(wait).toBe(Math.ceil((now + SIGN_IN_LIMIT.windowMs - (now + 1_000)) / 1000));
    expect(await nodeA.retryAfter(keys, now + 1_000)).toBe(wait);
    // The window slides: once the first failure is older than it, one more attempt is allowed.
    expect(await nodeA.retryAfter(keys, now + SIGN_IN_LIMIT.windowMs + 1)).toBe(0);
    // A success clears the account's count everywhere.
    await nodeA.succeeded('email:someone@example.com');
    expect(await nodeB.retryAfter(keys, now + 2_000)).toBe(0);
  });

  it('falls back to this node’s state while Redis is down, logs that once a minute, and uses Redis again once it is back', async () => {
    const state = await open();
    const clock = new ManualClock(Date.parse('2025-03-01T12:00:00Z'));
    const limiter = new SharedRateLimiter(state, new AddressRateLimiter(clock), clock);
    const keys = idempotencyKeys(state);
    expect(await limiter.take('192.0.2.9')).toBe(true);
    expect(state.degraded).toBe(false);
    // Cleared before Redis stops: the connection's own error as it drops may be the one warning.
    logged.length = 0;
    const closed = next(state.client, 'close');
    await redis.stop();
    await closed;
    const key = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
    // Down: answers come at once from the local bucket and keys (the local bucket starts full).
    for (let i = 0; i < 500; i++) expect(await limiter.take('192.0.2.9')).toBe(true);
    expect(await limiter.take('192.0.2.9')).toBe(false);
    expect(await keys.claim(5, key, clock.now(), true)).toBe(false);
    expect(await keys.claim(5, key, clock.now(), true)).toBe(true);
    expect(state.degraded).toBe(true);
    expect(logged.filter((line) => line.startsWith('warn'))).toHaveLength(1);
    wall += 59_000;
    await limiter.take('192.0.2.9');
    expect(logged.filter((line) => line.startsWith('warn'))).toHaveLength(1);
    wall += 1_000;
    await limiter.take('192.0.2.9');
    expect(logged.filter((line) => line.startsWith('warn'))).toHaveLength(2);

    // Back, empty: the node uses Redis again, and still knows the key it claimed meanwhile.
    const ready = next(state.client, 'ready');
    await redis.start();
    await ready;
    wall += 2_000;
    expect(await limiter.take('192.0.2.10')).toBe(true);
    expect(state.degraded).toBe(false);
    expect(logged.at(-1)).toMatch(/^info shared state .* answers again/);
    expect(await state.client.exists('svc:rate:192.0.2.10')).toBe(1);
    expect(await keys.claim(5, key, clock.now(), true)).toBe(true);
  });
});
