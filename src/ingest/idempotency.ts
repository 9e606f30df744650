import { LRUCache } from 'lru-cache';

export const IDEMPOTENCY_WINDOW_MS = 86_400_000;
export const MAX_IDEMPOTENCY_KEYS = 500_000;

/**
 * Idempotency keys seen in the last 24 hours, per site, so a retried request is accepted but
 * stored once. Held in memory and bounded: beyond the bound the oldest keys are forgotten first.
 * Keys are stored with their events and read back at start-up (idempotencyRestore.ts).
 */
export class IdempotencyKeys {
  private seen = new LRUCache<string, number>({ max: MAX_IDEMPOTENCY_KEYS });

  /** True when the key was already used for this site within 24 hours of `at`; with `commit`, a first use is remembered. */
  claim(siteId: number, key: string, at: number, commit: boolean): boolean {
    const first = this.seen.get(`${siteId}:${key}`);
    if (first !== undefined && at - first < IDEMPOTENCY_WINDOW_MS && at >= first) return true;
    if (commit) this.remember(siteId, key, at);
    return false;
  }

  remember(siteId: number, key: string, at: number): void {
    this.seen.set(`${siteId}:${key}`, at);
  }
}
