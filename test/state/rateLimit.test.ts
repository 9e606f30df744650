import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressRateLimiter } from '../../src/ingest/rateLimiter.js';
import { SharedRateLimiter } from '../../src/state/rateLimit.js';
import { SharedState } from '../../src/state/redis.js';
import { ManualClock } from '../support/manualClock.js';
import { startTestRedis, type TestRedis } from './redisServer.js';

const quiet = { warn() {}, info() {} };

describe('the per-address rate shared in Redis', () => {
  let redis: TestRedis;
  const states: SharedState[] = [];
  const open = async () => {
    const state = new SharedState(redis.url, quiet);
    states.push(state);
    expect(await state.ready()).toBe(true);
    return state;
  };

  beforeAll(async () => {
    redis = await startTestRedis();
  });
  afterAll(async () => {
    for (const state of states) await state.close();
    await redis.stop();
  });

  it('gives one address the spec’s rate in total across two nodes (burst 500, then 100/s), not twice it', async () => {
    const clock = new ManualClock(Date.parse('2025-03-01T12:00:00Z'));
    const nodes = [await open(), await open()].map((state) => new SharedRateLimiter(state, new AddressRateLimiter(clock), clock));
    const address = '203.0.113.7';
    let allowed = 0;
    let sent = 0;
    // 20 simulated seconds, each node offered 200 events a second (400/s in all), 10 ms apart.
    for (let tick = 0; tick < 2_000; tick++) {
      const answers = await Promise.all(nodes.map(async (node) => [await node.take(address), await node.take(address)]));
      for (const pair of answers) for (const ok of pair) if (ok) allowed += 1;
      sent += 4;
      clock.advance(10);
    }
    const expected = 500 + 100 * 20;
    expect(sent).toBe(8_000);
    expect(Math.abs(allowed - expected) / expected).toBeLessThanOrEqual(0.05);
  });

  it('admits an address far from its limit without waiting for Redis, and waits near it', async () => {
    const clock = new ManualClock(Date.parse('2025-03-03T12:00:00Z'));
    const node = new SharedRateLimiter(await open(), new AddressRateLimiter(clock), clock);
    // The event's one round trip is its visit's script: the token goes out beside it.
    expect(node.take('198.51.100.7')).toBe(true);
    let waited = 0;
    for (let i = 1; i < 500; i++) {
      const answer = node.take('198.51.100.7');
      if (answer instanceof Promise) waited += 1;
      expect(await answer).toBe(true);
    }
    expect(await node.take('198.51.100.7')).toBe(false);
    // Only the last tokens (and takes beyond the few allowed on the way) waited for the script.
    expect(waited).toBeLessThan(150);
  });

  it('counts each address on its own', async () => {
    const clock = new ManualClock(Date.parse('2025-03-02T12:00:00Z'));
    const node = new SharedRateLimiter(await open(), new AddressRateLimiter(clock), clock);
    for (let i = 0; i < 500; i++) expect(await node.take('198.51.100.1')).toBe(true);
    expect(await node.take('198.51.100.1')).toBe(false);
    expect(await node.take('198.51.100.2')).toBe(true);
  });
});
