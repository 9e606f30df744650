import type { ClickHouseClient } from '@clickhouse/client';
import type { Clock } from '../clock.js';
import type { HealthCounters } from './healthCounters.js';
import { EVENT_COLUMNS, type EventRow, encodeRow, SESSION_COLUMNS, type SessionRow } from './rows.js';

export interface WriteBufferOptions {
  client: ClickHouseClient;
  clock: Clock;
  counters: HealthCounters;
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  flushIntervalMs?: number;
  flushAtEvents?: number;
  /** Beyond this many waiting events (the store is down), new events are refused. */
  maxPendingEvents?: number;
}

const INSERT_CHUNK = 10_000;
const MAX_BACKOFF_MS = 30_000;

/** Encoded rows of one table waiting for their insert. */
class Queue {
  rows: string[] = [];
  failures = 0;
  retryAt = 0;

  constructor(
    readonly table: string,
    readonly columns: readonly string[],
  ) {}
}

/**
 * Accepted events wait here until the next flush: every 0.5 s or at 250 events, whichever comes
 * first. The visit rows and health counters they produce are written with every 0.5 s flush:
 * each insert is a new part in the store, and tying them to the size trigger as well tripled
 * the parts written under load (see the README's ingestion figures). A failed insert keeps its
 * rows at the head of the queue and is retried with back-off, so an accepted event is never
 * dropped silently; only a crash inside the window can lose rows. Events, session rows and health
 * counters flush independently, so one failing cannot duplicate another on retry.
 */
export class WriteBuffer {
  private events = new Queue('events', EVENT_COLUMNS);
  private sessions = new Queue('sessions', SESSION_COLUMNS);
  private counterFailures = 0;
  private counterRetryAt = 0;
  private lastFlush: number;
  private flushing: Promise<void> | null = null;
  /** A full flush was asked for while an events-only one was under way: it runs right after. */
  private fullWanted = false;
  private readonly interval: number;
  private readonly flushAt: number;
  private readonly maxPending: number;

  constructor(private readonly options: WriteBufferOptions) {
    this.interval = options.flushIntervalMs ?? 500;
    this.flushAt = options.flushAtEvents ?? 250;
    this.maxPending = options.maxPendingEvents ?? 200_000;
    this.lastFlush = options.clock.now();
  }

  get pendingEvents(): number {
    return this.events.rows.length;
  }

  /** Whether another event can be taken; false means the store has been failing for a while. */
  get hasRoom(): boolean {
    return this.events.rows.length < this.maxPending;
  }

  add(events: EventRow[], sessions: SessionRow[]): void {
    for (const row of events) this.events.rows.push(encodeRow(row, EVENT_COLUMNS));
    for (const row of sessions) this.sessions.rows.push(encodeRow(row, SESSION_COLUMNS));
    if (this.events.rows.length >= this.flushAt && this.events.failures === 0) void this.run(false);
  }

  /** Called often by a timer: flushes everything when the interval has passed on the clock. */
  tick(): Promise<void> {
    if (this.options.clock.now() - this.lastFlush >= this.interval) return this.flush();
    return this.flushing ?? Promise.resolve();
  }

  /** Writes everything waiting whose retry time has come; concurrent calls share one flush. */
  flush(): Promise<void> {
    return this.run(true);
  }

  /** One writer at a time; a full flush asked for during an events-only one follows it at once. */
  private run(full: boolean): Promise<void> {
    if (full) this.fullWanted = true;
    this.flushing ??= (async () => {
      try {
        do {
          const everything = this.fullWanted;
          this.fullWanted = false;
          await this.write(everything);
        } while (this.fullWanted);
      } finally {
        this.flushing = null;
      }
    })();
    return this.flushing;
  }

  /** Flushes until nothing waits or the deadline passes (graceful shutdown). */
  async drain(deadlineMs = 10_000): Promise<void> {
    const until = Date.now() + deadlineMs;
    for (;;) {
      if (this.flushing) await this.flushing;
      this.events.retryAt = this.sessions.retryAt = this.counterRetryAt = 0;
      await this.flush();
      const empty = this.events.rows.length === 0 && this.sessions.rows.length === 0 && this.counterFailures === 0;
      if (empty || Date.now() > until) {
        if (!empty) this.options.log.error({ events: this.events.rows.length, sessions: this.sessions.rows.length }, 'shutdown with unwritten events');
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  private async write(everything: boolean): Promise<void> {
    const now = this.options.clock.now();
    // Only the rows waiting when the flush began: rows that arrive during an insert wait for the
    // next flush, so a steady stream of events cannot keep the visits and counters from their turn.
    const dueEvents = this.events.rows.length;
    const dueSessions = this.sessions.rows.length;
    await this.writeQueue(this.events, dueEvents, now);
    if (!everything) return;
    this.lastFlush = now;
    await this.writeQueue(this.sessions, dueSessions, now);
    if (now >= this.counterRetryAt) {
      const rows = this.options.counters.drain();
      if (rows.length > 0) {
        try {
          await this.options.client.insert({ table: 'ingest_counters', values: rows, format: 'JSONEachRow' });
          this.counterFailures = 0;
        } catch (error) {
          this.options.counters.restore(rows);
          this.counterFailures += 1;
          this.counterRetryAt = now + backoff(this.counterFailures);
          this.options.log.warn({ err: error }, 'writing ingestion counters failed; will retry');
        }
      }
    }
  }

  private async writeQueue(queue: Queue, due: number, now: number): Promise<void> {
    if (now < queue.retryAt) return;
    while (due > 0) {
      const batch = queue.rows.slice(0, Math.min(INSERT_CHUNK, due));
      try {
        // The lines are already JSON; the ingest client passes strings through unchanged.
        await this.options.client.insert({
          table: queue.table,
          values: batch,
          format: 'JSONCompactEachRow',
          columns: [...queue.columns] as [string, ...string[]],
        });
      } catch (error) {
        queue.failures += 1;
        queue.retryAt = now + backoff(queue.failures);
        this.options.log.error({ err: error, rows: queue.rows.length, attempt: queue.failures }, `writing ${queue.table} failed; kept for retry`);
        return;
      }
      queue.rows.splice(0, batch.length);
      due -= batch.length;
      queue.failures = 0;
      queue.retryAt = 0;
    }
  }
}

function backoff(failures: number): number {
  return Math.min(MAX_BACKOFF_MS, 250 * 2 ** Math.min(failures, 10));
}
