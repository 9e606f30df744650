import type { HeldRecord } from './journal.js';
import { SESSION_TIMEOUT_MS } from './liveVisits/index.js';
import type { EventRow } from './rows.js';

const MAX_HELD = 100_000;

/** An engagement held for its visit: the journal's record, with the row typed. */
export interface HeldEngagement extends HeldRecord {
  row: EventRow;
}

/**
 * Where engagements wait for their visit: this process's holder below, or one shared by every
 * node (src/state/heldEngagements.ts, `STATE_URL`), whose answers may come from a round trip.
 */
export interface HeldEngagements {
  hold(siteId: number, userId: string, row: EventRow, at: number): HeldEngagement | null | Promise<HeldEngagement | null>;
  adopt(siteId: number, userIds: Iterable<string>, at: number): HeldEngagement[] | Promise<HeldEngagement[]>;
  expire(now: number): HeldEngagement[] | Promise<HeldEngagement[]>;
  restore(held: HeldEngagement): void;
  records(): Iterable<HeldEngagement>;
}

/**
 * Engagement measurements that arrived before any visit they could belong to. The browser may
 * send one before its pageview lands, so each is held until 30 minutes after it arrived; a visit
 * starting in that time adopts it, otherwise it expires as `no_session_for_engagement`. Each hold
 * has an id so the journal can say when it ended (src/ingest/journal.ts).
 */
export class OrphanEngagements implements HeldEngagements {
  private held = new Map<string, HeldEngagement[]>();
  private count = 0;
  private nextId = 1;

  get size(): number {
    return this.count;
  }

  /** The new hold, or null when the hold is full; the caller counts the event as expired at once. */
  hold(siteId: number, userId: string, row: EventRow, at: number): HeldEngagement | null {
    if (this.count >= MAX_HELD) return null;
    const held = { id: this.nextId++, siteId, userId, row, expiresAt: at + SESSION_TIMEOUT_MS };
    this.put(held);
    return held;
  }

  /** Takes back a hold the journal kept across a restart. */
  restore(held: HeldEngagement): void {
    this.nextId = Math.max(this.nextId, held.id + 1);
    this.put(held);
  }

  /** Every engagement still held, for a new journal segment to carry. */
  *records(): Iterable<HeldEngagement> {
    for (const list of this.held.values()) yield* list;
  }

  /** Engagements still waiting at `at` for a visit of any of these visitor ids; expired ones stay to be counted. */
  adopt(siteId: number, userIds: Iterable<string>, at: number): HeldEngagement[] {
    const adopted: HeldEngagement[] = [];
    if (this.count === 0) return adopted;
    for (const userId of userIds) {
      const id = `${siteId}:${userId}`;
      const list = this.held.get(id);
      if (!list) continue;
      const expired = list.filter((h) => h.expiresAt <= at);
      adopted.push(...list.filter((h) => h.expiresAt > at));
      this.count -= list.length - expired.length;
      if (expired.length === 0) this.held.delete(id);
      else this.held.set(id, expired);
    }
    return adopted;
  }

  /** Removes expired holds and returns them. */
  expire(now: number): HeldEngagement[] {
    const gone: HeldEngagement[] = [];
    for (const [id, list] of this.held) {
      const keep = list.filter((h) => h.expiresAt > now);
      if (keep.length === list.length) continue;
      gone.push(...list.filter((h) => h.expiresAt <= now));
      this.count -= list.length - keep.length;
      if (keep.length === 0) this.held.delete(id);
      else this.held.set(id, keep);
    }
    return gone;
  }

  private put(held: HeldEngagement): void {
    const id = `${held.siteId}:${held.userId}`;
    const list = this.held.get(id) ?? [];
    list.push(held);
    this.held.set(id, list);
    this.count += 1;
  }
}
