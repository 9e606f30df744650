import { randomBytes } from 'node:crypto';
import type { SessionRow } from '../rows.js';
import { EvictedVisitors } from './evictedVisitors.js';
import type { SpilledVisits } from './spilledVisits.js';
import { continueVisit, isLive, type LiveVisit, seconds, startVisit, type VisitEvent, visitFromRow, visitRow } from './visit.js';
import { toWords, VisitSlots } from './visitSlots.js';

export type MaybePromise<T> = T | Promise<T>;

export interface RecordedVisit {
  session: SessionRow;
  /** Rows to append: the previous state cancelled (sign -1, byte for byte as written), then the new one. */
  rows: SessionRow[];
}

/**
 * Live visits as the pipeline sees them (src/ingest/pipeline.ts). The in-process tracker below
 * is one; a shared one (Redis, `STATE_URL`) keeps the same compact form (`LiveVisit`, serialised
 * by src/ingest/liveVisits/codec.ts) and the same rules (src/ingest/liveVisits/visit.ts).
 */
export interface LiveVisits {
  readonly size: number;
  restore(row: SessionRow, startMs: number, lastSeen: number): void;
  touch(siteId: number, userIds: Iterable<string>, at: number, commit?: boolean): MaybePromise<SessionRow | undefined>;
  record(event: VisitEvent, userIds: Iterable<string>, commit?: boolean): MaybePromise<RecordedVisit>;
}

export interface SessionTrackerOptions {
  /** Visits held in memory; past it the least recently seen leave (config.liveVisitsMax). */
  max?: number;
  /** Writes every buffered row (src/ingest/writeBuffer.ts flush), so an evicted visit's last state is in the store. */
  flush?: () => Promise<void>;
  /** Visit rows of activity before this instant are in the store (src/ingest/writeBuffer.ts writtenThrough). */
  writtenThrough?: () => number;
  /** The stored visits of these visitors, each in its latest state (src/ingest/visitRestore.ts readBackVisits); `since` bounds their start. */
  readBack?: (visitors: ReadonlyArray<{ siteId: number; userIds: string[] }>, since: number) => Promise<LiveVisit[]>;
  log?: { warn(obj: object, msg: string): void };
  /** Where visits leaving memory are kept on disk first, so most come back without a read of the store. */
  spill?: SpilledVisits;
}

// One CSPRNG read per 1,024 visits instead of one per visit.
let pool = Buffer.alloc(0);
let poolOffset = 0;
function randomSessionId(): string {
  if (poolOffset + 8 > pool.length) {
    pool = randomBytes(8 * 1024);
    poolOffset = 0;
  }
  const id = pool.readBigUInt64BE(poolOffset);
  poolOffset += 8;
  return id.toString();
}

type Found = { visit: LiveVisit; slot: number } | undefined;

/** Visits longer than this are not looked for; the bound keeps a read to recent partitions. */
export const LONGEST_VISIT_MS = 24 * 3_600_000;

/**
 * Live visits, one per (site, visitor), ended by 30 minutes of inactivity. Every change is
 * returned as rows to append (the old state cancelled with sign -1, the new one with +1), so the
 * store never needs an UPDATE. Memory is bounded by `max`: the least recently seen visits leave
 * memory, kept on local disk (`spill`, src/ingest/liveVisits/spilledVisits.ts) and always in the
 * visits table, and come back unchanged when their visitor returns: from disk at once, else read
 * back from the store (only then is an answer a Promise). Time comes with each event.
 */
export class SessionTracker implements LiveVisits {
  private readonly slots = new VisitSlots();
  /** Every visitor whose visit left memory for room: worth a look on disk. */
  private readonly evicted = new EvictedVisitors();
  /** Those whose visit the disk does not hold (no room, or no disk): worth a read of the store. */
  private readonly unkept = new EvictedVisitors();
  private readonly max: number;
  /** Evictions whose rows may still wait in the write buffer. */
  /** The latest activity of a visit sent out of memory: read-backs need the rows up to it written. */
  private evictedThrough = Number.NEGATIVE_INFINITY;
  private evictionFlush: Promise<void> = Promise.resolve();
  /** Read-backs under way, by visitor: a second event of the visitor waits for the first. */
  private readonly readingBack = new Map<string, Promise<unknown>>();
  /** Visitors waiting for the next read: all asked while one read runs go in one query. */
  private waiting: { siteId: number; userIds: string[]; at: number; done: (visits: LiveVisit[]) => void }[] = [];
  private reading = false;

  constructor(private readonly options: SessionTrackerOptions = {}) {
    this.max = options.readBack ? Math.max(1, options.max ?? Number.POSITIVE_INFINITY) : Number.POSITIVE_INFINITY;
  }

  get size(): number {
    return this.slots.size;
  }

  /** Takes back a visit that was live when the process stopped (read from the sessions table). */
  restore(row: SessionRow, _startMs: number, lastSeen: number): void {
    const visit = visitFromRow(row, seconds(lastSeen));
    const [high, low] = toWords(visit.userId);
    const slot = this.slots.find(visit.siteId, high, low);
    if (slot >= 0) this.slots.remove(slot);
    this.hold(visit, lastSeen);
  }

  /**
   * The live visit of any of these visitor ids (today's, then yesterday's salt). An engagement
   * refreshes it (keeps it alive) without changing it; a preview changes nothing at all.
   */
  touch(siteId: number, userIds: Iterable<string>, at: number, commit = true): MaybePromise<SessionRow | undefined> {
    const ids = [...userIds];
    const apply = (found: Found) => {
      if (!found) return undefined;
      if (commit) {
        const lastSeen = Math.max(found.visit.lastSeen, seconds(at));
        if (found.slot >= 0) this.slots.seen(found.slot, lastSeen);
        else this.takeBack({ ...found.visit, lastSeen }, at);
      }
      return visitRow(found.visit, 1);
    };
    const found = this.find(siteId, ids, at);
    if (!found && this.mayBeAway(siteId, ids, at)) return this.afterReadBack(siteId, ids, at, apply);
    return apply(found);
  }

  /**
   * Records a non-engagement event: starts or continues a visit, returning its state and the rows
   * to write. With `commit` false it only previews (debug requests).
   */
  record(event: VisitEvent, userIds: Iterable<string>, commit = true): MaybePromise<RecordedVisit> {
    if (commit) this.sweep(event.timestamp);
    const ids = [...userIds];
    const apply = (found: Found): RecordedVisit => {
      if (!found) {
        const visit = startVisit(event, randomSessionId());
        if (commit) this.hold(visit, event.timestamp);
        const row = visitRow(visit, 1);
        return { session: row, rows: [row] };
      }
      const next = continueVisit(found.visit, event);
      if (commit) {
        if (found.slot >= 0) this.slots.update(found.slot, next);
        else this.takeBack(next, event.timestamp);
      }
      const session = visitRow(next, 1);
      return { session, rows: [visitRow(found.visit, -1), session] };
    };
    const found = this.find(event.siteId, ids, event.timestamp);
    if (!found && this.mayBeAway(event.siteId, ids, event.timestamp)) return this.afterReadBack(event.siteId, ids, event.timestamp, apply);
    return apply(found);
  }

  /** The visit in memory, else the one kept on disk when it left memory (only for visitors the filter says left). */
  private find(siteId: number, ids: string[], at: number): Found {
    for (const id of ids) {
      const [high, low] = toWords(id);
      const slot = this.slots.find(siteId, high, low);
      if (slot >= 0 && isLive(this.slots.lastSeen(slot), at)) return { visit: this.slots.visit(slot), slot };
    }
    const spill = this.options.spill;
    if (!spill) return undefined;
    for (const id of ids) {
      const [high, low] = toWords(id);
      if (this.slots.find(siteId, high, low) >= 0 || !this.evicted.mayHave(siteId, high, low)) continue;
      const visit = spill.find(siteId, high, low, id, at);
      if (visit) return { visit, slot: -1 };
    }
    return undefined;
  }

  /**
   * Whether a visitor's visit may be only in the store, ahead of any visit held for them. Visits
   * kept on disk were looked for already (find), so only those the disk lost are asked for, unless
   * the disk itself failed: then every visit that left memory is.
   */
  private mayBeAway(siteId: number, ids: string[], at: number): boolean {
    if (this.max === Number.POSITIVE_INFINITY) return false;
    const away = this.options.spill?.usable ? this.unkept : this.evicted;
    for (const id of ids) {
      const [high, low] = toWords(id);
      const slot = this.slots.find(siteId, high, low);
      if (slot >= 0 && isLive(this.slots.lastSeen(slot), at)) return false;
      if (slot < 0 && away.mayHave(siteId, high, low)) return true;
    }
    return false;
  }

  /** Reads the visitor's visit back from the store (after writing what was evicted), then applies the event. */
  private afterReadBack<T>(siteId: number, ids: string[], at: number, apply: (found: Found) => T): Promise<T> {
    const key = `${siteId}:${ids[0]}`;
    const before = this.readingBack.get(key);
    const run = (async () => {
      if (before) await before.catch(() => undefined);
      // An earlier event of this visitor may have brought the visit back meanwhile.
      if (!this.mayBeAway(siteId, ids, at)) return apply(this.find(siteId, ids, at));
      const stored = await this.readBack(siteId, ids, at);
      const inMemory = this.find(siteId, ids, at);
      if (inMemory) return apply(inMemory);
      for (const id of ids) {
        const visit = stored.find((v) => v.userId === id && isLive(v.lastSeen, at));
        if (visit) return apply({ visit, slot: -1 });
      }
      return apply(undefined);
    })();
    this.readingBack.set(key, run);
    const forget = () => {
      if (this.readingBack.get(key) === run) this.readingBack.delete(key);
    };
    run.then(forget, forget);
    return run;
  }

  private readBack(siteId: number, ids: string[], at: number): Promise<LiveVisit[]> {
    if (!this.options.readBack) return Promise.resolve([]);
    return new Promise((done) => {
      this.waiting.push({ siteId, userIds: ids, at, done });
      if (!this.reading) void this.readWaiting();
    });
  }

  /** One flush and one query for every visitor asked for meanwhile: read-backs cost per batch, not per event. */
  private async readWaiting(): Promise<void> {
    const { readBack, flush, log } = this.options;
    this.reading = true;
    try {
      while (this.waiting.length > 0 && readBack) {
        const batch = this.waiting;
        this.waiting = [];
        let visits: LiveVisit[] = [];
        try {
          // The least recently seen visits leave first, so their rows were usually written long
          // ago: a flush (a small part in the store) only when one was active since the last.
          const written = this.options.writtenThrough?.() ?? Number.NEGATIVE_INFINITY;
          if (flush && this.evictedThrough >= written) {
            this.evictedThrough = Number.NEGATIVE_INFINITY;
            this.evictionFlush = flush();
          }
          await this.evictionFlush;
          visits = await readBack(batch, Math.min(...batch.map((b) => b.at)) - LONGEST_VISIT_MS);
        } catch (error) {
          // The store is unreachable: the events still count, each in a visit of its own.
          log?.warn({ err: error, visitors: batch.length }, 'reading back evicted visits failed; starting new visits');
        }
        for (const request of batch) request.done(visits.filter((v) => v.siteId === request.siteId && request.userIds.includes(v.userId)));
      }
    } finally {
      this.reading = false;
    }
  }

  /** Holds again a visit that came back from disk or the store; its copy on disk, now stale, gives up its slot. */
  private takeBack(visit: LiveVisit, at: number): void {
    const [userHigh, userLow] = toWords(visit.userId);
    this.options.spill?.release(visit.siteId, userHigh, userLow);
    this.hold(visit, at);
  }

  /** Keeps a visit in memory, making room by sending the least recently seen to the store. */
  private hold(visit: LiveVisit, at: number): void {
    while (this.slots.size >= this.max) {
      const slot = this.slots.leastRecent;
      if (isLive(this.slots.lastSeen(slot), at)) {
        const { siteId, userHigh, userLow } = this.slots.key(slot);
        this.evicted.add(siteId, userHigh, userLow, at);
        const lost = (site: number, high: number, low: number) => this.unkept.add(site, high, low, at);
        if (this.options.spill) this.options.spill.put(this.slots.visit(slot), siteId, userHigh, userLow, lost);
        else lost(siteId, userHigh, userLow);
        // Seconds, as slots keep them; the end of that second, in milliseconds.
        this.evictedThrough = Math.max(this.evictedThrough, (this.slots.lastSeen(slot) + 1) * 1000);
      }
      this.slots.remove(slot);
    }
    this.slots.add(visit);
  }

  /** Forgets visits that can no longer continue, oldest activity first, so memory follows live traffic. */
  private sweep(now: number): void {
    for (let slot = this.slots.leastRecent; slot >= 0 && !isLive(this.slots.lastSeen(slot), now); slot = this.slots.leastRecent) this.slots.remove(slot);
  }
}
