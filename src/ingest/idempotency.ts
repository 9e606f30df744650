import { LRUCache } from 'lru-cache';

const DAY = 86_400_000;

/**
 * Idempotency keys seen in the last 24 hours, per site, so a retried request is accepted but
 * stored once. Held in memory and bounded: beyond the bound the oldest keys are forgotten first.
 */
export class IdempotencyKeys {
  private seen = new LRUCache<string, number>({ max: 500_000 });

  /** True when the key was already used for this site within 24 hours of `at`. */
  isRepeat(siteId: number, key: string, at: number): boolean {
    const first = this.seen.get(`${siteId}:${key}`);
    return first !== undefined && at - first < DAY && at >= first;
  }

  remember(siteId: number, key: string, at: number): void {
    this.seen.set(`${siteId}:${key}`, at);
  }
}
