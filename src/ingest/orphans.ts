import type { EventRow } from './rows.js';
import { SESSION_TIMEOUT_MS } from './sessions.js';

interface Held {
  row: EventRow;
  expiresAt: number;
}

const MAX_HELD = 100_000;

/**
 * Engagement measurements that arrived before any visit they could belong to. The browser may
 * send one before its pageview lands, so each is held until 30 minutes after it arrived; a visit
 * starting in that time adopts it, otherwise it expires as `no_session_for_engagement`.
 */
export class OrphanEngagements {
  private held = new Map<string, Held[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** False when the hold is full; the caller counts the event as expired at once. */
  hold(siteId: number, userId: string, row: EventRow, at: number): boolean {
    if (this.count >= MAX_HELD) return false;
    const id = `${siteId}:${userId}`;
    const list = this.held.get(id) ?? [];
    list.push({ row, expiresAt: at + SESSION_TIMEOUT_MS });
    this.held.set(id, list);
    this.count += 1;
    return true;
  }

  /** Engagements still waiting at `at` for a visit of any of these visitor ids; expired ones stay to be counted. */
  adopt(siteId: number, userIds: Iterable<string>, at: number): EventRow[] {
    const adopted: EventRow[] = [];
    if (this.count === 0) return adopted;
    for (const userId of userIds) {
      const id = `${siteId}:${userId}`;
      const list = this.held.get(id);
      if (!list) continue;
      const expired = list.filter((h) => h.expiresAt <= at);
      adopted.push(...list.filter((h) => h.expiresAt > at).map((h) => h.row));
      this.count -= list.length - expired.length;
      if (expired.length === 0) this.held.delete(id);
      else this.held.set(id, expired);
    }
    return adopted;
  }

  /** Removes expired holds and returns how many expired per site. */
  expire(now: number): Map<number, number> {
    const expired = new Map<number, number>();
    for (const [id, list] of this.held) {
      const keep = list.filter((h) => h.expiresAt > now);
      for (const gone of list.filter((h) => h.expiresAt <= now)) expired.set(gone.row.site_id, (expired.get(gone.row.site_id) ?? 0) + 1);
      this.count -= list.length - keep.length;
      if (keep.length === 0) this.held.delete(id);
      else this.held.set(id, keep);
    }
    return expired;
  }
}
