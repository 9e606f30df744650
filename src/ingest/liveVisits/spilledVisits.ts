import { closeSync, mkdirSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { decodeLiveVisit, encodeLiveVisit } from './codec.js';
import { hash1 } from './evictedVisitors.js';
import type { LiveVisit } from './visit.js';

const SLOT_BYTES = 512;
// Thirty-two slots a bucket (16 KiB, still one read): with the file at four slots per capped
// visit, a bucket overflows about once in 2,500 at the load a flood of new visitors reaches
// (docs/benchmarks.md, the soak), where eight slots overflowed once in 30 and sent those visitors
// to the store.
const BUCKET_SLOTS = 32;
const BUCKET_BYTES = SLOT_BYTES * BUCKET_SLOTS;
/** site, visitor (two words), last seen (epoch seconds, 0: empty), text length. */
const HEADER_BYTES = 18;
const TEXT_BYTES = SLOT_BYTES - HEADER_BYTES;
const SESSION_TIMEOUT_S = 30 * 60;
/** A slot's last-seen field at zero: the slot is free. */
const EMPTY_LAST_SEEN = Buffer.alloc(4);

/** Told of each visitor whose visit the file does not hold although it left memory: the store must answer for it. */
export type LostVisit = (siteId: number, userHigh: number, userLow: number) => void;

export interface SpillLog {
  error(obj: object, msg: string): void;
}

/**
 * Visits sent out of memory for room (src/ingest/liveVisits/tracker.ts), kept on local disk until
 * they can no longer continue: an open-addressing table of fixed 512-byte slots in one file, in
 * buckets of thirty-two (16 KiB), placed by the hash of site and visitor. A returning visitor's
 * visit is one read away, from the page cache as a rule, instead of a read of the visits table
 * that waits for the store (which made a cap that real traffic passes cost 95 % of throughput,
 * docs/benchmarks.md). The file holds four slots per visit the cap keeps in memory, so nothing here
 * counts against the process's memory; slots of visits past their 30 minutes are free again.
 *
 * It is a cache in front of the visits table, never the only copy: a visit that finds no room (its
 * bucket full of live visits, or text longer than a slot) or a disk that fails leaves the visitor
 * to the tracker's read-back from the store, which sees every visit that left memory.
 */
export class SpilledVisits {
  private fd: number | null = null;
  private failed = false;
  private readonly buckets: number;
  private readonly page = Buffer.alloc(BUCKET_BYTES);
  private readonly slot = Buffer.alloc(SLOT_BYTES);
  /** Where the last `find` found its visit (cleared by any other use of the file), so that taking it back into memory frees its slot without a second read. */
  private found: { offset: number; siteId: number; userHigh: number; userLow: number } | null = null;

  constructor(
    private readonly path: string,
    slots: number,
    private readonly log: SpillLog,
  ) {
    this.buckets = Math.max(1, Math.ceil(slots / BUCKET_SLOTS));
  }

  /** Whether visits kept here can be found again (false once the disk failed). */
  get usable(): boolean {
    return !this.failed;
  }

  /**
   * Keeps a visit that leaves memory. `lost` is told of this visitor when the visit could not be
   * kept, and of another visitor whose live visit gave up its slot for it (its bucket was full).
   */
  put(visit: LiveVisit, siteId: number, userHigh: number, userLow: number, lost: LostVisit): void {
    if (!this.keep(visit, siteId, userHigh, userLow, lost)) lost(siteId, userHigh, userLow);
  }

  private keep(visit: LiveVisit, siteId: number, userHigh: number, userLow: number, lost: LostVisit): boolean {
    this.found = null;
    const fd = this.file();
    if (fd === null) return false;
    try {
      const bucket = this.bucketOf(siteId, userHigh, userLow);
      this.readBucket(fd, bucket);
      const text = encodeLiveVisit(visit);
      const length = Buffer.byteLength(text);
      const at = this.placeFor(siteId, userHigh, userLow, visit.lastSeen);
      if (length > TEXT_BYTES) {
        // Too long for a slot: an older copy of this visit must not be found instead.
        if (at.same) this.writeSlot(fd, bucket, at.index, 0, 0, 0, 0, '');
        return false;
      }
      if (!at.same && this.isLive(at.index * SLOT_BYTES, visit.lastSeen)) {
        const base = at.index * SLOT_BYTES;
        lost(this.page.readUInt32LE(base), this.page.readUInt32LE(base + 4), this.page.readUInt32LE(base + 8));
      }
      this.writeSlot(fd, bucket, at.index, siteId, userHigh, userLow, visit.lastSeen, text);
      return true;
    } catch (error) {
      this.fail(error);
      return false;
    }
  }

  /** The visit kept for this visitor, if it can still continue at `at` (epoch ms). */
  find(siteId: number, userHigh: number, userLow: number, userId: string, at: number): LiveVisit | undefined {
    this.found = null;
    const fd = this.failed ? null : this.fd;
    if (fd === null) return undefined;
    try {
      this.readBucket(fd, this.bucketOf(siteId, userHigh, userLow));
      for (let i = 0; i < BUCKET_SLOTS; i++) {
        const base = i * SLOT_BYTES;
        if (!this.holds(base, siteId, userHigh, userLow)) continue;
        const lastSeen = this.page.readUInt32LE(base + 12);
        if (Math.floor(at / 1000) - lastSeen > SESSION_TIMEOUT_S) return undefined;
        const text = this.page.toString('utf8', base + HEADER_BYTES, base + HEADER_BYTES + this.page.readUInt16LE(base + 16));
        this.found = { offset: this.bucketOf(siteId, userHigh, userLow) * BUCKET_BYTES + base, siteId, userHigh, userLow };
        return decodeLiveVisit(siteId, userId, text);
      }
      return undefined;
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  /**
   * Frees the slot of the visit `find` returned last, now that it is back in memory: a copy left
   * here would hold a slot as long as the visit lives, and with a flood's returning visitors those
   * copies filled buckets until one visit in 35 was pushed out to the store (docs/benchmarks.md).
   */
  release(siteId: number, userHigh: number, userLow: number): void {
    const found = this.found;
    this.found = null;
    if (found === null || this.fd === null || this.failed) return;
    if (found.siteId !== siteId || found.userHigh !== userHigh || found.userLow !== userLow) return;
    try {
      writeSync(this.fd, EMPTY_LAST_SEEN, 0, EMPTY_LAST_SEEN.length, found.offset + 12);
    } catch (error) {
      this.fail(error);
    }
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    rmSync(this.path, { force: true });
  }

  /** The file, created empty on the first visit to keep (what a previous process left is stale: its visits were restored from the store). */
  private file(): number | null {
    if (this.failed) return null;
    if (this.fd === null) {
      try {
        mkdirSync(dirname(this.path), { recursive: true });
        this.fd = openSync(this.path, 'w+');
      } catch (error) {
        this.fail(error);
      }
    }
    return this.fd;
  }

  private bucketOf(siteId: number, userHigh: number, userLow: number): number {
    return (hash1(siteId, userHigh, userLow) >>> 0) % this.buckets;
  }

  private readBucket(fd: number, bucket: number): void {
    const read = readSync(fd, this.page, 0, BUCKET_BYTES, bucket * BUCKET_BYTES);
    // Past the end of the file (never written there): empty slots.
    if (read < BUCKET_BYTES) this.page.fill(0, read);
  }

  private holds(base: number, siteId: number, userHigh: number, userLow: number): boolean {
    return (
      this.page.readUInt32LE(base + 12) !== 0 &&
      this.page.readUInt32LE(base) === siteId &&
      this.page.readUInt32LE(base + 4) === userHigh &&
      this.page.readUInt32LE(base + 8) === userLow
    );
  }

  /** This visitor's slot in the bucket read last, else a free one, else the one seen longest ago. */
  private placeFor(siteId: number, userHigh: number, userLow: number, now: number): { index: number; same: boolean } {
    let free = -1;
    let oldest = 0;
    for (let i = 0; i < BUCKET_SLOTS; i++) {
      const base = i * SLOT_BYTES;
      if (this.holds(base, siteId, userHigh, userLow)) return { index: i, same: true };
      if (free < 0 && !this.isLive(base, now)) free = i;
      if (this.page.readUInt32LE(base + 12) < this.page.readUInt32LE(oldest * SLOT_BYTES + 12)) oldest = i;
    }
    return { index: free >= 0 ? free : oldest, same: false };
  }

  /** Whether the slot at `base` of the bucket read last holds a visit that can still continue at `now` (epoch seconds). */
  private isLive(base: number, now: number): boolean {
    const lastSeen = this.page.readUInt32LE(base + 12);
    return lastSeen !== 0 && now - lastSeen <= SESSION_TIMEOUT_S;
  }

  private writeSlot(fd: number, bucket: number, index: number, siteId: number, userHigh: number, userLow: number, lastSeen: number, text: string): void {
    const slot = this.slot;
    slot.writeUInt32LE(siteId, 0);
    slot.writeUInt32LE(userHigh >>> 0, 4);
    slot.writeUInt32LE(userLow >>> 0, 8);
    slot.writeUInt32LE(lastSeen, 12);
    const length = slot.write(text, HEADER_BYTES, 'utf8');
    slot.writeUInt16LE(length, 16);
    writeSync(fd, slot, 0, HEADER_BYTES + length, bucket * BUCKET_BYTES + index * SLOT_BYTES);
  }

  /** A disk that fails once is not used again: every visit that left memory is then read back from the store. */
  private fail(error: unknown): void {
    if (!this.failed) this.log.error({ err: error, path: this.path }, 'keeping evicted visits on disk failed; reading them back from the store instead');
    this.failed = true;
  }
}
