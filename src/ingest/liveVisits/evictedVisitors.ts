import { SESSION_TIMEOUT_MS } from './visit.js';

const BITS_LOG2 = 24;
const MASK = (1 << BITS_LOG2) - 1;
const PROBES = 4;

/**
 * The visitors whose visits left memory for room in the last 30 minutes or more: a Bloom filter
 * (fixed size, 2 MiB per half hour, two half hours kept), so a brand-new visitor, by far the
 * commonest event, is told apart from a returning one without asking the store. A "maybe" costs
 * one read of the visits table; about 1.5 % of new visitors get one after 1.8 M evictions in a
 * half hour (1,000 new visitors a second over the cap), far fewer at ordinary traffic.
 */
export class EvictedVisitors {
  private current: Int32Array | null = null;
  private previous: Int32Array | null = null;
  private since = 0;

  add(siteId: number, userHigh: number, userLow: number, at: number): void {
    this.rotate(at);
    this.current ??= new Int32Array(1 << (BITS_LOG2 - 5));
    const bits = this.current;
    let h = hash1(siteId, userHigh, userLow);
    const step = hash2(siteId, userHigh, userLow) | 1;
    for (let i = 0; i < PROBES; i++, h = (h + step) | 0) {
      const bit = h & MASK;
      bits[bit >>> 5] = (bits[bit >>> 5] ?? 0) | (1 << (bit & 31));
    }
  }

  mayHave(siteId: number, userHigh: number, userLow: number): boolean {
    if (this.current === null && this.previous === null) return false;
    return test(this.current, siteId, userHigh, userLow) || test(this.previous, siteId, userHigh, userLow);
  }

  /** A key added in one half hour stays for the next one too: at least 30 minutes in all. */
  private rotate(at: number): void {
    if (at - this.since < SESSION_TIMEOUT_MS && at >= this.since) return;
    this.previous = at - this.since < 2 * SESSION_TIMEOUT_MS ? this.current : null;
    this.current = null;
    this.since = at;
  }
}

function test(bits: Int32Array | null, siteId: number, userHigh: number, userLow: number): boolean {
  if (bits === null) return false;
  let h = hash1(siteId, userHigh, userLow);
  const step = hash2(siteId, userHigh, userLow) | 1;
  for (let i = 0; i < PROBES; i++, h = (h + step) | 0) {
    const bit = h & MASK;
    if (((bits[bit >>> 5] ?? 0) & (1 << (bit & 31))) === 0) return false;
  }
  return true;
}

// Visitor ids are already keyed hashes (src/ingest/identity.ts); mixing in the site is enough.
export function hash1(siteId: number, _userHigh: number, userLow: number): number {
  return mix(userLow ^ Math.imul(siteId, 0x9e3779b1));
}

function hash2(siteId: number, userHigh: number, userLow: number): number {
  return mix(userHigh ^ Math.imul(siteId, 0x85ebca6b) ^ Math.imul(userLow, 0x27d4eb2d));
}

function mix(x: number): number {
  let h = x | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}
