import { closeSync, mkdirSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { decodeLiveVisit, encodeLiveVisit } from './codec.js';
import { hash1 } from './evictedVisitors.js';
import type { LiveVisit } from './visit.js';

const SLOT_BYTES = 512;
// Thirty-two slots a bucket: buckets of eight overflowed under a flood of new visitors and sent
// those visitors to the store; buckets of 32 rarely do while the file is under about two-thirds
// full (docs/benchmarks.md, the soak and bench:flood).
const BUCKET_SLOTS = 32;
/**
 * Slots in the file per visit the cap keeps in memory. A flood's visitors outlive their place in
 * memory many times over (the soak's visitors all return within the half hour): at the default
 * cap, four per capped visit overflowed and read most of them back from the store, eight filled
 * buckets before the half hour, ten keep the read-backs to a trickle (docs/benchmarks.md).
 */
export const SLOTS_PER_CAPPED_VISIT = 10;
/** site, visitor (two words), last seen (epoch seconds), text length. */
const HEADER_BYTES = 18;
const TEXT_BYTES = SLOT_BYTES - HEADER_BYTES;
const SESSION_TIMEOUT_S = 30 * 60;

/** Told of each visitor whose visit the file does not hold although it left memory: the store must answer for it. */
export type LostVisit = (siteId: number, userHigh: number, userLow: number) => void;

export interface SpillLog {
  error(obj: object, msg: string): void;
}

/**
 * Visits sent out of memory for room (src/ingest/liveVisits/tracker.ts), kept on local disk until
 * they can no longer continue: an open-addressing table of fixed 512-byte slots in one file, in
 * buckets of thirty-two placed by the hash of site and visitor. A returning visitor's visit is one
 * 512-byte read away, from the page cache as a rule, instead of a read of the visits table that
 * waits for the store (which made a cap that real traffic passes cost most of the throughput,
 * docs/benchmarks.md). The file holds SLOTS_PER_CAPPED_VISIT slots per visit the cap keeps in memory.
 *
 * Each slot's last activity and a 16-bit tag of its visitor stay in memory (6 bytes a slot, 60 per
 * capped visit, allocated once the cap is first passed): a visitor with no matching tag in its
 * bucket, nearly every new visitor of a flood, costs no read at all, and keeping a visit costs one
 * write, no read. Slots of visits past their 30 minutes, or taken back into memory, are free again.
 *
 * It is a cache in front of the visits table, never the only copy: a visit that finds no room (its
 * bucket full of live visits, or text longer than a slot) or a disk that fails leaves the visitor
 * to the tracker's read-back from the store, which sees every visit that left memory.
 */
export class SpilledVisits {
  private fd: number | null = null;
  private failed = false;
  private readonly buckets: number;
  /** Per slot: the visit's last activity (epoch seconds; 0 when free) and its visitor's tag. */
  private lastSeen = new Uint32Array(0);
  private tags = new Uint16Array(0);
  private readonly slot = Buffer.alloc(SLOT_BYTES);
  /** The slot the last `find` found its visit in (cleared by any other use), so taking it back into memory frees it. */
  private found = -1;

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

  /** The visit kept for this visitor, if it can still continue at `at` (epoch ms). */
  find(siteId: number, userHigh: number, userLow: number, userId: string, at: number): LiveVisit | undefined {
    this.found = -1;
    const fd = this.failed ? null : this.fd;
    if (fd === null) return undefined;
    try {
      const slot = this.slotOf(fd, siteId, userHigh, userLow);
      if (slot < 0 || Math.floor(at / 1000) - (this.lastSeen[slot] ?? 0) > SESSION_TIMEOUT_S) return undefined;
      this.found = slot;
      return decodeLiveVisit(siteId, userId, this.slot.toString('utf8', HEADER_BYTES, HEADER_BYTES + this.slot.readUInt16LE(16)));
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  /**
   * Frees the slot of the visit `find` returned last, now that it is back in memory: a copy left
   * here would hold a slot as long as the visit lives, and with a flood's returning visitors those
   * copies filled buckets until live visits were pushed out to the store (docs/benchmarks.md).
   */
  release(siteId: number, userHigh: number, userLow: number): void {
    const slot = this.found;
    this.found = -1;
    if (slot < 0 || !this.holds(siteId, userHigh, userLow)) return;
    this.lastSeen[slot] = 0;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    this.lastSeen = new Uint32Array(0);
    this.tags = new Uint16Array(0);
    rmSync(this.path, { force: true });
  }

  private keep(visit: LiveVisit, siteId: number, userHigh: number, userLow: number, lost: LostVisit): boolean {
    this.found = -1;
    const fd = this.file();
    if (fd === null) return false;
    try {
      const same = this.slotOf(fd, siteId, userHigh, userLow);
      const text = encodeLiveVisit(visit);
      if (Buffer.byteLength(text) > TEXT_BYTES) {
        // Too long for a slot: an older copy of this visit must not be found instead.
        if (same >= 0) this.lastSeen[same] = 0;
        return false;
      }
      const slot = same >= 0 ? same : this.placeFor(this.bucketOf(siteId, userHigh, userLow), visit.lastSeen);
      if (same < 0 && this.isLive(slot, visit.lastSeen)) {
        this.readSlot(fd, slot);
        lost(this.slot.readUInt32LE(0), this.slot.readUInt32LE(4), this.slot.readUInt32LE(8));
      }
      this.writeSlot(fd, slot, siteId, userHigh, userLow, visit.lastSeen, text);
      this.lastSeen[slot] = visit.lastSeen;
      this.tags[slot] = tagOf(siteId, userHigh, userLow);
      return true;
    } catch (error) {
      this.fail(error);
      return false;
    }
  }

  /** The file, created empty on the first visit to keep (what a previous process left is stale: its visits were restored from the store). */
  private file(): number | null {
    if (this.failed) return null;
    if (this.fd === null) {
      try {
        mkdirSync(dirname(this.path), { recursive: true });
        this.fd = openSync(this.path, 'w+');
        this.lastSeen = new Uint32Array(this.buckets * BUCKET_SLOTS);
        this.tags = new Uint16Array(this.buckets * BUCKET_SLOTS);
      } catch (error) {
        this.fail(error);
      }
    }
    return this.fd;
  }

  private bucketOf(siteId: number, userHigh: number, userLow: number): number {
    return (hash1(siteId, userHigh, userLow) >>> 0) % this.buckets;
  }

  /** The slot holding this visitor's visit (its header left in `slot`), else -1; reads only slots whose tag matches. */
  private slotOf(fd: number, siteId: number, userHigh: number, userLow: number): number {
    const tag = tagOf(siteId, userHigh, userLow);
    const first = this.bucketOf(siteId, userHigh, userLow) * BUCKET_SLOTS;
    for (let slot = first; slot < first + BUCKET_SLOTS; slot++) {
      if (this.tags[slot] !== tag || this.lastSeen[slot] === 0) continue;
      this.readSlot(fd, slot);
      if (this.holds(siteId, userHigh, userLow)) return slot;
    }
    return -1;
  }

  /** Whether the slot read last holds this visitor's visit. */
  private holds(siteId: number, userHigh: number, userLow: number): boolean {
    return this.slot.readUInt32LE(0) === siteId && this.slot.readUInt32LE(4) === userHigh && this.slot.readUInt32LE(8) === userLow;
  }

  /** A free slot of the bucket, else the one seen longest ago. */
  private placeFor(bucket: number, now: number): number {
    const first = bucket * BUCKET_SLOTS;
    let oldest = first;
    for (let slot = first; slot < first + BUCKET_SLOTS; slot++) {
      if (!this.isLive(slot, now)) return slot;
      if ((this.lastSeen[slot] ?? 0) < (this.lastSeen[oldest] ?? 0)) oldest = slot;
    }
    return oldest;
  }

  /** Whether the slot holds a visit that can still continue at `now` (epoch seconds). */
  private isLive(slot: number, now: number): boolean {
    const lastSeen = this.lastSeen[slot] ?? 0;
    return lastSeen !== 0 && now - lastSeen <= SESSION_TIMEOUT_S;
  }

  private readSlot(fd: number, slot: number): void {
    const read = readSync(fd, this.slot, 0, SLOT_BYTES, slot * SLOT_BYTES);
    if (read < HEADER_BYTES) this.slot.fill(0);
  }

  private writeSlot(fd: number, slot: number, siteId: number, userHigh: number, userLow: number, lastSeen: number, text: string): void {
    const buffer = this.slot;
    buffer.writeUInt32LE(siteId, 0);
    buffer.writeUInt32LE(userHigh >>> 0, 4);
    buffer.writeUInt32LE(userLow >>> 0, 8);
    buffer.writeUInt32LE(lastSeen, 12);
    const length = buffer.write(text, HEADER_BYTES, 'utf8');
    buffer.writeUInt16LE(length, 16);
    writeSync(fd, buffer, 0, HEADER_BYTES + length, slot * SLOT_BYTES);
  }

  /** A disk that fails once is not used again: every visit that left memory is then read back from the store. */
  private fail(error: unknown): void {
    if (!this.failed) this.log.error({ err: error, path: this.path }, 'keeping evicted visits on disk failed; reading them back from the store instead');
    this.failed = true;
  }
}

/** A 16-bit tag of the visitor, from other bits than the bucket's hash, so a bucket's visitors rarely share one. */
function tagOf(siteId: number, userHigh: number, userLow: number): number {
  let h = (userHigh ^ Math.imul(siteId, 0x27d4eb2d) ^ Math.imul(userLow, 0x165667b1)) | 0;
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  return (h ^ (h >>> 13)) >>> 16;
}
