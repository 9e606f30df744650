import type { SharedIngestionState } from '../ingest/sharedState.js';
import { SharedHeldEngagements } from './heldEngagements.js';
import { SharedIdempotencyKeys } from './idempotency.js';
import { SharedLiveVisits } from './liveVisits.js';
import { SharedRateLimiter } from './rateLimit.js';
import type { SharedState } from './redis.js';

/** Ingestion's shared state (src/ingest/sharedState.ts) kept in Redis: held engagements, live visits, idempotency keys, the per-address rate. */
export function sharedIngestionState(state: SharedState): SharedIngestionState<SharedHeldEngagements, SharedLiveVisits> {
  return {
    get degraded() {
      return state.degraded;
    },
    heldEngagements: (local) => new SharedHeldEngagements(state, local),
    liveVisits: (held, local, options) => new SharedLiveVisits(state, local, held, options),
    idempotency: (visits, local) => new SharedIdempotencyKeys(state, local, visits),
    rateLimiter: (local, clock) => new SharedRateLimiter(state, local, clock),
  };
}
