import type { Clock } from '../clock.js';
import type { LocalRateLimit, RateLimit } from '../ingest/sharedState.js';
import { type SharedState, STATE_KEY_PREFIX, StateScript } from './redis.js';

/**
 * The token bucket of src/ingest/rateLimiter.ts, kept in one Redis hash per address so every
 * node takes from the same bucket: read, refill, take and write back in one script, which Redis
 * runs alone, so two nodes never both spend the last token. Time is the caller's (the injected
 * clock); a node whose clock runs behind the last writer's refills nothing rather than going
 * back. The hash expires once it would have refilled completely, as the local sweep drops it.
 * Returns whether a token was taken and the tokens left, in thousandths.
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
return {allowed, math.floor(tokens * 1000)}
`);

/** This node's view of an address's shared bucket: the tokens Redis last reported, and its own takes since. */
interface Mirror {
  tokens: number;
  at: number;
  /** Tokens this node has taken whose script has not answered yet. */
  unconfirmed: number;
}

/**
 * While the shared bucket holds more than this, a node decides from its mirror and takes the
 * token without waiting (the script goes out with the event's other Redis calls: one round trip
 * per event). Below it, every take waits for the script, so nodes that each see the
 * same refill never admit it twice.
 */
const OPTIMISTIC_ABOVE_TOKENS = 50;
/** Takes one node may have on the way per address before it waits for an answer. */
const MAX_UNCONFIRMED = 8;
const SWEEP_EVERY_MS = 10_000;

/** The per-address ingestion rate (spec: 100 events per second, bursts of 500) counted once across all nodes. */
export class SharedRateLimiter implements RateLimit {
  private mirrors = new Map<string, Mirror>();
  private lastSweep = 0;

  constructor(
    private readonly state: SharedState,
    /** This node's own bucket, used while Redis does not answer. */
    private readonly local: LocalRateLimit,
    private readonly clock: Clock,
    private readonly ratePerSecond = 100,
    private readonly burst = 500,
  ) {}

  take(address: string): boolean | Promise<boolean> {
    // Down: answer from this node at once, with no promise to wait on.
    if (!this.state.usable) return this.fallBack(address);
    const now = this.clock.now();
    this.sweep(now);
    let mirror = this.mirrors.get(address);
    if (!mirror) {
      // An address this node has not seen lately: its bucket is most likely full.
      mirror = { tokens: this.burst, at: now, unconfirmed: 0 };
      this.mirrors.set(address, mirror);
    }
    const estimate = Math.min(this.burst, mirror.tokens + (Math.max(0, now - mirror.at) / 1000) * this.ratePerSecond) - mirror.unconfirmed;
    // Just back from an outage, or near the limit: wait for the shared answer.
    if (this.state.degraded || estimate <= OPTIMISTIC_ABOVE_TOKENS || mirror.unconfirmed >= MAX_UNCONFIRMED) return this.takeWaiting(address, mirror, now);
    mirror.unconfirmed += 1;
    // Admitted already: should the script not answer, the token is not taken from the local bucket too.
    void this.takeShared(address, mirror, now).finally(() => {
      mirror.unconfirmed -= 1;
    });
    return true;
  }

  private async takeWaiting(address: string, mirror: Mirror, now: number): Promise<boolean> {
    return (await this.takeShared(address, mirror, now)) ?? this.local.take(address);
  }

  /** Takes a token from the shared bucket and refreshes the mirror; undefined when Redis did not answer. */
  private async takeShared(address: string, mirror: Mirror, now: number): Promise<boolean | undefined> {
    const answer = await this.state.call((client) =>
      this.state.script(client, TAKE, [`${STATE_KEY_PREFIX}rate:${address}`], [now, this.ratePerSecond, this.burst]),
    );
    if (!Array.isArray(answer)) return undefined;
    const [allowed, thousandths] = answer.map(Number);
    if (now >= mirror.at) {
      mirror.tokens = Number(thousandths) / 1000;
      mirror.at = now;
    }
    return allowed === 1;
  }

  private fallBack(address: string): boolean {
    this.state.skipped();
    return this.local.take(address);
  }

  /** Forgets mirrors of addresses whose buckets have refilled: they hold nothing a fresh one would not. */
  private sweep(now: number): void {
    if (now - this.lastSweep < SWEEP_EVERY_MS && now >= this.lastSweep) return;
    this.lastSweep = now;
    const refillMs = (this.burst / this.ratePerSecond) * 1000;
    for (const [address, mirror] of this.mirrors) if (mirror.unconfirmed === 0 && now - mirror.at >= refillMs) this.mirrors.delete(address);
  }
}
