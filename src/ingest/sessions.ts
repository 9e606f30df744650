import { randomBytes } from 'node:crypto';
import { clickhouseTime, type SessionRow, sessionRow, type VisitAttributes } from './rows.js';

export const SESSION_TIMEOUT_MS = 30 * 60_000;

/** What a non-engagement event brings to its visit. */
export interface VisitEvent {
  siteId: number;
  userId: string;
  timestamp: number;
  name: string;
  hostname: string;
  pathname: string;
  interactive: boolean;
  attributes: VisitAttributes;
  props: Record<string, string>;
  classification: string;
}

interface LiveSession {
  row: SessionRow;
  startMs: number;
  /** Last activity, engagement included: it keeps a visit alive without changing it. */
  lastSeen: number;
}

const key = (siteId: number, userId: string) => `${siteId}:${userId}`;

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

/**
 * Live visits, one per (site, visitor), ended by 30 minutes of inactivity. Every change is
 * returned as rows to append (the old state cancelled with sign -1, the new one with +1), so the
 * store never needs an UPDATE. Pure apart from its own map: time comes with each event.
 */
export class SessionTracker {
  private live = new Map<string, LiveSession>();
  private lastSweep = 0;

  get size(): number {
    return this.live.size;
  }

  /** Takes back a visit that was live when the process stopped (read from the sessions table). */
  restore(row: SessionRow, startMs: number, lastSeen: number): void {
    this.live.set(key(row.site_id, row.user_id), { row, startMs, lastSeen });
  }

  /**
   * The live visit of any of these visitor ids (today's, then yesterday's salt). An engagement
   * refreshes it (keeps it alive) without changing it; a preview changes nothing at all.
   */
  touch(siteId: number, userIds: Iterable<string>, at: number, commit = true): SessionRow | undefined {
    const session = this.find(siteId, userIds, at);
    if (!session) return undefined;
    if (commit) session.lastSeen = Math.max(session.lastSeen, at);
    return session.row;
  }

  /**
   * Records a non-engagement event: starts or continues a visit, returning its state and the rows
   * to write. With `commit` false it only previews (debug requests).
   */
  record(event: VisitEvent, userIds: Iterable<string>, commit = true): { session: SessionRow; rows: SessionRow[] } {
    if (commit) this.sweep(event.timestamp);
    const isPageview = event.name === 'pageview';
    const existing = this.find(event.siteId, userIds, event.timestamp);
    if (!existing) {
      const row = sessionRow(
        {
          session_id: randomSessionId(),
          sign: 1,
          site_id: event.siteId,
          user_id: event.userId,
          hostname: isPageview ? event.hostname : '',
          timestamp: clickhouseTime(event.timestamp),
          start: clickhouseTime(event.timestamp),
          // A visit that starts with an interactive custom event is engaged, not a bounce.
          is_bounce: isPageview || !event.interactive ? 1 : 0,
          entry_page: isPageview ? event.pathname : '',
          exit_page: isPageview ? event.pathname : '',
          exit_page_hostname: isPageview ? event.hostname : '',
          pageviews: isPageview ? 1 : 0,
          events: 1,
          duration: 0,
          entry_props: event.props,
          classification: event.classification,
        },
        event.attributes,
      );
      if (commit) this.live.set(key(event.siteId, event.userId), { row, startMs: event.timestamp, lastSeen: event.timestamp });
      return { session: row, rows: [row] };
    }

    const old = existing.row;
    const pageviews = old.pageviews + (isPageview ? 1 : 0);
    const next = sessionRow(
      {
        session_id: old.session_id,
        sign: 1,
        site_id: old.site_id,
        user_id: old.user_id,
        hostname: old.hostname === '' && isPageview ? event.hostname : old.hostname,
        timestamp: clickhouseTime(Math.max(event.timestamp, existing.lastSeen)),
        start: old.start,
        // Non-interactive events never un-bounce a visit; a second pageview or an interaction does.
        is_bounce: old.is_bounce === 1 && !(pageviews >= 2 || (event.interactive && !isPageview)) ? 1 : 0,
        entry_page: old.entry_page === '' && isPageview ? event.pathname : old.entry_page,
        exit_page: isPageview ? event.pathname : old.exit_page,
        exit_page_hostname: isPageview ? event.hostname : old.exit_page_hostname,
        pageviews,
        events: old.events + 1,
        duration: Math.floor(Math.abs(event.timestamp - existing.startMs) / 1000),
        entry_props: old.entry_props,
        classification: old.classification,
      },
      old,
    );
    if (commit) {
      existing.row = next;
      existing.lastSeen = Math.max(existing.lastSeen, event.timestamp);
    }
    return { session: next, rows: [sessionRow(old, old, -1), next] };
  }

  private find(siteId: number, userIds: Iterable<string>, at: number): LiveSession | undefined {
    for (const userId of userIds) {
      const session = this.live.get(key(siteId, userId));
      if (session && at - session.lastSeen <= SESSION_TIMEOUT_MS) return session;
    }
    return undefined;
  }

  /** Forgets visits that can no longer continue, so memory follows live traffic. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000 && now >= this.lastSweep) return;
    this.lastSweep = now;
    for (const [id, session] of this.live) if (now - session.lastSeen > SESSION_TIMEOUT_MS) this.live.delete(id);
  }
}
