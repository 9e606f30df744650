import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { CounterRow, IngestionStore } from '../stores/clickhouse/ingestionStore.js';
import type { HealthCounters } from './healthCounters.js';
import { type HeldRecord, insertToken, type Journal, type JournalTable } from './journal.js';
import { EVENT_COLUMNS, type EventRow, encodeRow, SESSION_COLUMNS, type SessionRow } from './rows.js';

export interface WriteBufferOptions {
  /** Where rows and health counts are inserted (src/stores/clickhouse/ingestionStore.ts). */
  store: Pick<IngestionStore, 'insertRows' | 'insertCounts'>;
  clock: Clock;
  counters: HealthCounters;
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  flushIntervalMs?: number;
  flushAtEvents?: number;
  /** Beyond this many waiting events (the store is down), new events are refused. */
  maxPendingEvents?: number;
  /**
   * Where accepted rows are made durable before their 202 (src/ingest/journal.ts). Without one
   * (unit tests of flush timing) rows live only in memory until written.
   */
  journal?: Journal;
}

const INSERT_CHUNK = 10_000;
const MAX_BACKOFF_MS = 30_000;

/** Encoded rows of one table waiting for their insert. */
class Queue {
  rows: string[] = [];
  /** The journal seq of `rows[0]`. */
  headSeq = 0;
  /** A batch sent and not confirmed: it is retried exactly, under the same token, so the store can drop a repeat. */
  unconfirmed: number | null = null;
  failures = 0;
  retryAt = 0;

  constructor(readonly table: Exclude<JournalTable, 'ingest_counters'>) {}
}

/** Health counts sent and not confirmed, retried exactly like a queue's batch. */
interface CounterBatch {
  rows: CounterRow[];
  seq: number;
  count: number;
}

/**
 * Accepted events wait here until the next flush: every 0.5 s or at 250 events, whichever comes
 * first. The visit rows and health counters they produce are written with every 0.5 s flush:
 * each insert is a new part in the store, and tying them to the size trigger as well tripled
 * the parts written under load (see the README's ingestion figures). A failed insert keeps its
 * rows at the head of the queue and is retried with back-off, so an accepted event is never
 * dropped silently. Every row is also in the journal before its request is answered, and every
 * insert carries a deduplication token naming its journal rows, so a crash loses nothing and a
 * replay stores nothing twice (docs/collecting-events.md). Events, session rows and health
 * counters flush independently, so one failing cannot duplicate another on retry.
 */
export class WriteBuffer {
  private events = new Queue('events');
  private sessions = new Queue('sessions');
  private counterFailures = 0;
  private counterRetryAt = 0;
  private counterBatch: CounterBatch | null = null;
  /** Seq of the next health-count line, as the journal numbers them. */
  private counterSeq = 0;
  /** Seq of the first health-count line not yet confirmed by the store. */
  private counterHead = 0;
  private readonly tokenId: string;
  private lastFlush: number;
  private sessionsWrittenThrough = Number.NEGATIVE_INFINITY;
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
    this.tokenId = options.journal?.id ?? randomBytes(6).toString('hex');
    if (options.journal) {
      options.counters.trackDelta();
      options.journal.beforeGroup = () => this.journalCounts();
    }
  }

  /** Visit rows taken before this instant (on the clock) are in the store; read-backs of evicted visits rely on it. */
  get writtenThrough(): number {
    return this.sessionsWrittenThrough;
  }

  /** Whether rows wait for a retry: the store failed their insert. */
  get failing(): boolean {
    return this.events.failures > 0 || this.sessions.failures > 0;
  }

  get pendingEvents(): number {
    return this.events.rows.length;
  }

  /** Whether another event can be taken; false means the store has been failing for a while. */
  get hasRoom(): boolean {
    return this.events.rows.length < this.maxPending;
  }

  add(events: EventRow[], sessions: SessionRow[]): void {
    const journal = this.options.journal;
    for (const row of events) {
      const line = encodeRow(row, EVENT_COLUMNS);
      this.events.rows.push(line);
      journal?.row('events', line);
    }
    for (const row of sessions) {
      const line = encodeRow(row, SESSION_COLUMNS);
      this.sessions.rows.push(line);
      journal?.row('sessions', line);
    }
    if (this.events.rows.length >= this.flushAt && this.events.failures === 0) void this.run(false);
  }

  /** An engagement now waits for its visit; it outlives a crash through the journal. */
  hold(record: HeldRecord): void {
    this.options.journal?.held(record);
  }

  /** Held engagements that were adopted into a visit (their rows were just added) or expired. */
  release(ids: Iterable<number>): void {
    const journal = this.options.journal;
    if (journal) for (const id of ids) journal.released(id);
  }

  /** Resolves once every row and hold taken so far would survive a crash of the process. */
  durable(): Promise<void> {
    return this.options.journal?.durable() ?? Promise.resolve();
  }

  /** Health counts since the last group go into the journal with it. */
  private journalCounts(): void {
    const rows = this.options.counters.takeDelta();
    if (rows.length === 0) return;
    this.counterSeq += 1;
    this.options.journal?.row('ingest_counters', JSON.stringify(rows));
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
    // Every visit row taken before this flush began is in the store unless a batch failed.
    if (this.sessions.unconfirmed === null) this.sessionsWrittenThrough = now;
    if (now >= this.counterRetryAt) await this.writeCounters(now);
  }

  /**
   * Health counts, drained once per full flush. Their journal lines up to now are the batch: the
   * counts not yet journaled are journaled first, so the batch and its lines hold the same sums.
   */
  private async writeCounters(now: number): Promise<void> {
    if (this.counterBatch === null) {
      this.journalCounts();
      const rows = this.options.counters.drain();
      if (rows.length === 0) return;
      // Without a journal no lines number the counts: each drained batch counts as one.
      if (!this.options.journal) this.counterSeq += 1;
      this.counterBatch = { rows, seq: this.counterHead, count: this.counterSeq - this.counterHead };
    }
    const batch = this.counterBatch;
    try {
      await this.send('ingest_counters', batch.seq, batch.count, () =>
        this.options.store.insertCounts(batch.rows, insertToken(this.tokenId, 'ingest_counters', batch.seq, batch.count)),
      );
      this.counterHead = batch.seq + batch.count;
      this.counterBatch = null;
      this.counterFailures = 0;
    } catch (error) {
      this.counterFailures += 1;
      this.counterRetryAt = now + backoff(this.counterFailures);
      this.options.log.warn({ err: error }, 'writing ingestion counters failed; will retry');
    }
  }

  /** Marks the batch begun in the journal (durably), sends it, then marks it done. */
  private async send(table: JournalTable, seq: number, count: number, insert: () => Promise<unknown>): Promise<void> {
    const journal = this.options.journal;
    if (journal) {
      journal.begin(table, seq, count);
      await journal.durable();
    }
    await insert();
    journal?.done(table, seq, count);
  }

  private async writeQueue(queue: Queue, due: number, now: number): Promise<void> {
    if (now < queue.retryAt) return;
    while (due > 0 || queue.unconfirmed !== null) {
      const count = queue.unconfirmed ?? Math.min(INSERT_CHUNK, due);
      const batch = queue.rows.slice(0, count);
      const seq = queue.headSeq;
      queue.unconfirmed = count;
      try {
        await this.send(queue.table, seq, count, () => this.options.store.insertRows(queue.table, batch, insertToken(this.tokenId, queue.table, seq, count)));
      } catch (error) {
        queue.failures += 1;
        queue.retryAt = now + backoff(queue.failures);
        this.options.log.error({ err: error, rows: queue.rows.length, attempt: queue.failures }, `writing ${queue.table} failed; kept for retry`);
        return;
      }
      queue.rows.splice(0, count);
      queue.headSeq += count;
      queue.unconfirmed = null;
      due = Math.max(0, due - count);
      queue.failures = 0;
      queue.retryAt = 0;
    }
  }
}

function backoff(failures: number): number {
  return Math.min(MAX_BACKOFF_MS, 250 * 2 ** Math.min(failures, 10));
}
