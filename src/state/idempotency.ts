import { type ClaimingVisits, IDEMPOTENCY_WINDOW_MS, type IdempotencyClaims, type LocalIdempotencyKeys } from '../ingest/sharedState.js';
import type { SharedLiveVisits, VisitClaim } from './liveVisits.js';
import { type SharedState, STATE_KEY_PREFIX } from './redis.js';

export const idempotencyKeyName = (siteId: number, key: string) => `${STATE_KEY_PREFIX}idem:${siteId}:${key}`;

/**
 * Idempotency keys held in Redis, so a retry sent to another node is still stored once: one
 * `SET key 1 NX PX 86400000` both asks and remembers, and Redis runs it alone, so of two nodes
 * claiming one key at once exactly one stores the event. A committed event's key is claimed by
 * its visit script (src/state/liveVisits.ts), which changes the visit only when the SET took: a
 * keyed event waits for one round trip, as one without a key does. Redis expires
 * keys by its own clock (the window is for live traffic; a replayed history uses the in-process
 * keys). While Redis does not answer the node's own keys decide; they also learn every key
 * claimed here, so a retry reaching this node during an outage is still caught.
 */
export class SharedIdempotencyKeys implements IdempotencyClaims {
  constructor(
    private readonly state: SharedState,
    private readonly local: LocalIdempotencyKeys,
    private readonly visits: SharedLiveVisits,
  ) {}

  claimingVisits(siteId: number, key: string, at: number): ClaimingVisits | undefined {
    // Redis away: `claim` asks this node's own keys. A key this node saw while Redis was away is
    // a duplicate Redis may not know of: `claim` tells it, and nothing reaches the visit.
    if (!this.state.usable || this.local.claim(siteId, key, at, false)) return undefined;
    const claim: VisitClaim = {
      name: idempotencyKeyName(siteId, key),
      windowMs: IDEMPOTENCY_WINDOW_MS,
      answered: () => {
        this.local.claim(siteId, key, at, true);
      },
      onLocal: () => this.local.claim(siteId, key, at, true),
    };
    return {
      touch: (site, userIds, touchedAt) => this.visits.touchClaiming(site, userIds, touchedAt, claim),
      record: (event, userIds) => this.visits.recordClaiming(event, userIds, claim),
    };
  }

  claim(siteId: number, key: string, at: number, commit: boolean): boolean | Promise<boolean> {
    if (!this.state.usable) {
      this.state.skipped();
      return this.local.claim(siteId, key, at, commit);
    }
    return this.claimShared(siteId, key, at, commit);
  }

  private async claimShared(siteId: number, key: string, at: number, commit: boolean): Promise<boolean> {
    const name = idempotencyKeyName(siteId, key);
    if (!commit) {
      // A debug request asks without remembering.
      const exists = await this.state.call((client) => client.exists(name));
      return exists === undefined ? this.local.claim(siteId, key, at, false) : exists === 1;
    }
    const set = await this.state.call((client) => client.set(name, '1', 'PX', IDEMPOTENCY_WINDOW_MS, 'NX'));
    if (set === undefined) return this.local.claim(siteId, key, at, true);
    // A key first claimed here while Redis was away is known only here.
    const seenHere = this.local.claim(siteId, key, at, true);
    return set === null || seenHere;
  }
}
