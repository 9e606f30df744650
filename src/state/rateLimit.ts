import type { Clock } from '../clock.js';
import { type SharedState, STATE_KEY_PREFIX, StateScript } from './redis.js';

/** What the ingestion pipeline asks of a rate limiter (src/ingest/pipeline.ts). */
export interface RateLimiter {
  take(address: string): boolean | Promise<boolean>;
}

/**
 * The token bucket of src/ingest/rateLimiter.ts, kept in one Redis hash per address so every
 * node takes from the same bucket: read, refill, take and write back in one script, which Redis
 * runs alone, so two nodes never both spend the last token. Time is the caller's (the injected
 * clock); a node whose clock runs behind the last writer's refills nothing rather than going
 * back. The hash expires once it would have refilled completely, as the local sweep drops it.
 */
const TAKE = new StateScript(`
local bucket = redis.call('HMGET', KEYS[1], 't', 'u')
local now = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local tokens = tonumber(bucket[1])
local updated = tonumber(bucket[2])
if tokens == nil or updated == nil then
  tokens = burst
  updated = now
end
if now > updated then
  tokens = math.min(burst, tokens + (now - updated) / 1000 * rate)
  updated = now
end
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'u', tostring(updated))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000))
return allowed
`);

/** The per-address ingestion rate (spec: 100 events per second, bursts of 500) counted once across all nodes. */
export class SharedRateLimiter implements RateLimiter {
  constructor(
    private readonly state: SharedState,
    /** This node's own bucket, used while Redis does not answer. */
    private readonly local: { take(address: string): boolean },
    private readonly clock: Clock,
    private readonly ratePerSecond = 100,
    private readonly burst = 500,
  ) {}

  take(address: string): boolean | Promise<boolean> {
    // Down: answer from this node at once, with no promise to wait on.
    if (!this.state.usable) return this.fallBack(address);
    return this.takeShared(address);
  }

  private async takeShared(address: string): Promise<boolean> {
    const now = this.clock.now();
    const allowed = await this.state.call((client) =>
      this.state.script(client, TAKE, [`${STATE_KEY_PREFIX}rate:${address}`], [now, this.ratePerSecond, this.burst]),
    );
    return allowed === undefined ? this.local.take(address) : allowed === 1;
  }

  private fallBack(address: string): boolean {
    this.state.skipped();
    return this.local.take(address);
  }
}
