import type { Clock } from '../clock.js';

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * Token bucket per source address: `ratePerSecond` sustained, `burst` at once. Buckets that
 * have refilled completely carry no information and are dropped, which bounds memory.
 */
export class AddressRateLimiter {
  private buckets = new Map<string, Bucket>();
  private lastSweep = 0;

  constructor(
    private readonly clock: Clock,
    private readonly ratePerSecond = 100,
    private readonly burst = 500,
  ) {}

  /** Takes a token for the address; false when its bucket is empty. */
  take(address: string): boolean {
    const now = this.clock.now();
    this.sweep(now);
    const bucket = this.buckets.get(address) ?? { tokens: this.burst, updatedAt: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.ratePerSecond);
    bucket.updatedAt = now;
    this.buckets.set(address, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < 10_000) return;
    this.lastSweep = now;
    const refillMs = (this.burst / this.ratePerSecond) * 1000;
    for (const [address, bucket] of this.buckets) if (now - bucket.updatedAt >= refillMs) this.buckets.delete(address);
  }
}
