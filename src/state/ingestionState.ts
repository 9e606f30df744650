import type { Clock } from '../clock.js';
import type { LiveVisits } from '../ingest/liveVisits/index.js';
import type { IdempotencyClaims, RateLimit } from '../ingest/pipeline.js';
import { SharedIdempotencyKeys } from './idempotency.js';
import { SharedLiveVisits } from './liveVisits.js';
import { SharedRateLimiter } from './rateLimit.js';
import type { SharedState } from './redis.js';

type LocalRateLimiter = { take(address: string): boolean };
type LocalIdempotency = { claim(siteId: number, key: string, at: number, commit: boolean): boolean };

/** The per-address rate: shared across nodes with STATE_URL, else this process's own bucket (unchanged, synchronous). */
export function rateLimiterFor(state: SharedState | null, local: LocalRateLimiter, clock: Clock): RateLimit {
  return state === null ? local : new SharedRateLimiter(state, local, clock);
}

/** Idempotency keys: shared across nodes with STATE_URL (claimed by the visits' own script), else this process's own. */
export function idempotencyFor(state: SharedState | null, local: LocalIdempotency, visits: LiveVisits): IdempotencyClaims {
  return state === null || !(visits instanceof SharedLiveVisits) ? local : new SharedIdempotencyKeys(state, local, visits);
}
