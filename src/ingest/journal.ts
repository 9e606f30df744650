import { randomBytes } from 'node:crypto';
import { constants, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { basename, join } from 'node:path';

/**
 * The ingestion journal: every row the write buffer takes (events, visit rows, health counts) and
 * every engagement held for a visit is appended here and written through to disk, in groups,
 * before the request that brought it is answered 202. A process killed at any moment replays what
 * the store had not yet confirmed (docs/collecting-events.md, "What accepted guarantees").
 *
 * Lines, one record each (the type letter, a space, the payload):
 *   J <journal id> <next events seq> <next sessions seq> <next counters seq>   first line of a segment
 *   E <row>  S <row>      an `events` / `sessions` row, JSONCompactEachRow as the buffer inserts it
 *   C <json rows>         health counts taken since the previous C line
 *   H <json held>         an engagement held for a visit that has not begun; A <id> once it is gone
 *   B <table> <seq> <n>   an insert of rows seq…seq+n−1 is about to be sent; D <table> <seq> <n> once confirmed
 *
 * An insert is sent with the token `<journal id>:<table>:<seq>:<n>`, so a replay that resends a
 * batch the store had already written is deduplicated by ClickHouse rather than counted twice.
 */

export const JOURNAL_TABLES = ['events', 'sessions', 'ingest_counters'] as const;
export type JournalTable = (typeof JOURNAL_TABLES)[number];

/** An engagement waiting for its visit, as the journal keeps it. */
export interface HeldRecord {
  id: number;
  siteId: number;
  userId: string;
  /** The encoded-as-object event row (EventRow); kept as the pipeline built it. */
  row: unknown;
  expiresAt: number;
}

/** A segment grows to about this before the next one starts; confirmed segments are deleted. */
const SEGMENT_BYTES = 8 * 2 ** 20;

const TABLE_LETTER: Record<JournalTable, string> = { events: 'E', sessions: 'S', ingest_counters: 'C' };

type Seqs = Record<JournalTable, number>;
const zeroSeqs = (): Seqs => ({ events: 0, sessions: 0, ingest_counters: 0 });

export function insertToken(journalId: string, table: JournalTable, seq: number, count: number): string {
  return `${journalId}:${table}:${seq}:${count}`;
}

/** What a previous process left unconfirmed, to be written before taking new traffic. */
export interface JournalReplay {
  journalId: string;
  /** Per table, the rows not confirmed, from `firstSeq` on; `begun` is a batch that may have reached the store. */
  tables: Record<JournalTable, { firstSeq: number; lines: string[]; begun: { seq: number; count: number } | null }>;
  held: HeldRecord[];
  segments: string[];
}

interface SegmentInfo {
  path: string;
  /** The next seq of each table after this segment's last row. */
  end: Seqs;
}

/** Reads every segment in `dir` (oldest first) into what each earlier journal left to write. */
export function readJournals(dir: string): JournalReplay[] {
  const replays: JournalReplay[] = [];
  let current: ReplayBuilder | null = null;
  for (const path of listSegments(dir)) {
    const file = readFileSync(path, 'utf8');
    // Segments are laid out in zeros before use: the records end where the zeros begin.
    const zeros = file.indexOf('\0');
    const text = zeros === -1 ? file : file.slice(0, zeros);
    // A line cut short by the crash was never acknowledged: only whole lines count.
    const whole = text.endsWith('\n') ? text : text.slice(0, text.lastIndexOf('\n') + 1);
    const lines = whole.split('\n');
    const header = (lines[0] ?? '').split(' ');
    if (header[0] !== 'J') continue;
    if (current === null || current.journalId !== header[1]) {
      if (current) replays.push(current.finish());
      current = new ReplayBuilder(header[1] ?? '', [Number(header[2]), Number(header[3]), Number(header[4])]);
    }
    current.segments.push(path);
    for (const line of lines.slice(1)) if (line.length >= 2) current.read(line);
  }
  if (current) replays.push(current.finish());
  return replays;
}

class ReplayBuilder {
  readonly segments: string[] = [];
  private readonly next: Seqs;
  private readonly confirmed: Seqs;
  private readonly begun: Record<JournalTable, { seq: number; count: number } | null> = { events: null, sessions: null, ingest_counters: null };
  private readonly rows: Record<JournalTable, { seq: number; line: string }[]> = { events: [], sessions: [], ingest_counters: [] };
  private readonly held = new Map<number, HeldRecord>();

  constructor(
    readonly journalId: string,
    [events = 0, sessions = 0, counters = 0]: number[],
  ) {
    this.next = { events, sessions, ingest_counters: counters };
    this.confirmed = { ...this.next };
  }

  read(line: string): void {
    const body = line.slice(2);
    const letter = line[0];
    const table = JOURNAL_TABLES.find((t) => TABLE_LETTER[t] === letter);
    if (table) {
      this.rows[table].push({ seq: this.next[table]++, line: body });
      return;
    }
    if (letter === 'H') {
      const record = JSON.parse(body) as HeldRecord;
      this.held.set(record.id, record);
    } else if (letter === 'A') {
      this.held.delete(Number(body));
    } else if (letter === 'B' || letter === 'D') {
      const [name, seqText, countText] = body.split(' ');
      const batchTable = JOURNAL_TABLES.find((t) => t === name);
      if (!batchTable) return;
      const seq = Number(seqText);
      const count = Number(countText);
      if (letter === 'B') this.begun[batchTable] = { seq, count };
      else {
        this.confirmed[batchTable] = Math.max(this.confirmed[batchTable], seq + count);
        if (this.begun[batchTable]?.seq === seq) this.begun[batchTable] = null;
      }
    }
  }

  finish(): JournalReplay {
    const tables = {} as JournalReplay['tables'];
    for (const table of JOURNAL_TABLES) {
      const from = this.confirmed[table];
      const begun = this.begun[table];
      tables[table] = {
        firstSeq: from,
        lines: this.rows[table].filter((row) => row.seq >= from).map((row) => row.line),
        begun: begun && begun.seq >= from ? begun : null,
      };
    }
    return { journalId: this.journalId, tables, held: [...this.held.values()], segments: this.segments };
  }
}

function listSegments(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => SEGMENT_NAME.test(name))
    .sort((a, b) => segmentNumber(a) - segmentNumber(b))
    .map((name) => join(dir, name));
}

const SEGMENT_NAME = /^segment-(\d+)\.log$/;
const segmentNumber = (path: string) => Number(SEGMENT_NAME.exec(basename(path))?.[1] ?? 0);

export interface JournalLog {
  error(obj: object, msg: string): void;
}

/**
 * Appends records and makes them durable in groups: `durable()` resolves once everything appended
 * before it is on disk (one synchronous data write for all the requests waiting at that moment).
 */
export class Journal {
  readonly id = randomBytes(6).toString('hex');
  private handle: FileHandle | null = null;
  private segmentNumber: number;
  private segmentBytes = 0;
  /** A segment whose carried-over holds alone pass SEGMENT_BYTES still takes a group before the next starts. */
  private segmentHasGroups = false;
  private pending: string[] = [];
  private waiters: Array<() => void> = [];
  private writing = false;
  /** Settles once the last group written is on disk. */
  private lastSync: Promise<void> = Promise.resolve();
  /** Seqs handed out to rows appended (in memory). */
  private readonly next = zeroSeqs();
  /** Seqs of the rows already in the file: a new segment's header starts from these. */
  private readonly filed = zeroSeqs();
  private readonly confirmed = zeroSeqs();
  private readonly closedSegments: SegmentInfo[] = [];
  private currentPath = '';
  private failedAt = 0;
  /** Called as each group is taken, so the write buffer can add the health counts of the moment. */
  beforeGroup: () => void = () => {};

  constructor(
    private readonly dir: string,
    private readonly log: JournalLog,
    /** Records a new segment starts with (engagements still held), so older segments can be deleted. */
    private readonly carryOver: () => string[],
  ) {
    mkdirSync(dir, { recursive: true });
    const existing = listSegments(dir);
    this.segmentNumber = existing.length === 0 ? 1 : segmentNumber(existing[existing.length - 1] ?? '') + 1;
  }

  /**
   * Starts this journal's first segment and, once it is on disk (its header is written through,
   * the segment being open with O_DSYNC), deletes the segments of earlier journals, which the
   * caller has written to the store by then (their held engagements are in the carry-over).
   */
  async open(replayed: string[]): Promise<void> {
    await this.startSegment();
    for (const path of replayed) rmSync(path, { force: true });
  }

  /** The seq the next row of `table` will get. */
  nextSeq(table: JournalTable): number {
    return this.next[table];
  }

  row(table: JournalTable, encoded: string): void {
    this.next[table] += 1;
    this.pending.push(`${TABLE_LETTER[table]} ${encoded}`);
  }

  held(record: HeldRecord): void {
    this.pending.push(heldLine(record));
  }

  released(id: number): void {
    this.pending.push(`A ${id}`);
  }

  begin(table: JournalTable, seq: number, count: number): void {
    this.pending.push(`B ${table} ${seq} ${count}`);
  }

  /** The store confirmed rows seq…seq+count−1; segments whose rows are all confirmed are deleted. */
  done(table: JournalTable, seq: number, count: number): void {
    this.pending.push(`D ${table} ${seq} ${count}`);
    this.confirmed[table] = Math.max(this.confirmed[table], seq + count);
    while (this.closedSegments.length > 0) {
      const oldest = this.closedSegments[0] as SegmentInfo;
      if (JOURNAL_TABLES.some((t) => this.confirmed[t] < oldest.end[t])) break;
      this.closedSegments.shift();
      rmSync(oldest.path, { force: true });
    }
  }

  /** Resolves once every record appended so far is on disk. Never rejects: a failing disk is logged. */
  durable(): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      if (!this.writing) {
        this.writing = true;
        void this.writeGroups();
      }
    });
  }

  /**
   * Groups are taken one after another; a group's write may still be reaching the disk while the
   * next group is taken and its write started, so requests keep being parsed while the disk
   * syncs (at most two writes at once).
   */
  private async writeGroups(): Promise<void> {
    try {
      while (this.pending.length > 0 || this.waiters.length > 0) {
        // The requests read in this turn of the event loop join the group.
        await new Promise<void>((resolve) => setImmediate(resolve));
        this.beforeGroup();
        const lines = this.pending;
        const waiters = this.waiters;
        this.pending = [];
        this.waiters = [];
        const before = this.lastSync;
        // A group is durable once its own write is and every earlier one is too: a replay reads a
        // segment only up to its first unwritten byte.
        const synced = lines.length > 0 ? Promise.all([before, (await this.append(lines)).written]).then(() => {}) : before;
        this.lastSync = synced;
        void synced.then(() => {
          for (const resolve of waiters) resolve();
        });
        await before;
      }
    } finally {
      this.writing = false;
    }
  }

  /**
   * Starts writing a group at the end of the segment; `written` settles once the group is on disk
   * (or the disk failed). The segment is open for synchronous data writes (O_DSYNC), so a group takes
   * one call on the thread pool, not a write and then an fdatasync: half the wake-ups of a thread
   * under load, each of which cost the main thread on this project's two-core machines.
   */
  private async append(lines: string[]): Promise<{ written: Promise<void> }> {
    try {
      if (this.handle === null || (this.segmentBytes >= SEGMENT_BYTES && this.segmentHasGroups)) await this.startSegment();
      const handle = this.handle as FileHandle | null;
      if (handle === null) return { written: Promise.resolve() };
      const bytes = Buffer.from(`${lines.join('\n')}\n`);
      // Counted before the write: should it fail part-way, the next segment's header must still
      // number its rows after every row this one may hold.
      for (const line of lines) {
        const table = LETTER_TABLE[line[0] ?? ''];
        if (table) this.filed[table] += 1;
      }
      const at = this.segmentBytes;
      this.segmentBytes += bytes.length;
      this.segmentHasGroups = true;
      return {
        written: handle.write(bytes, 0, bytes.length, at).then(
          () => {},
          (error) => this.failed(error),
        ),
      };
    } catch (error) {
      await this.failed(error);
      return { written: Promise.resolve() };
    }
  }

  /** The rows are still in the write buffer and will be written; only a crash before then loses them. */
  private async failed(error: unknown): Promise<void> {
    if (Date.now() - this.failedAt > 60_000) this.log.error({ err: error }, 'writing the ingestion journal failed; accepted events are kept in memory only');
    this.failedAt = Date.now();
    const handle = this.handle;
    this.handle = null;
    await handle?.close().catch(() => {});
  }

  private async startSegment(): Promise<void> {
    if (this.handle !== null) {
      await this.lastSync;
      await this.handle.close();
      this.closedSegments.push({ path: this.currentPath, end: { ...this.filed } });
      this.handle = null;
    }
    const path = join(this.dir, `segment-${this.segmentNumber++}.log`);
    const handle = await createSegmentFile(path);
    const header = Buffer.from(
      `${[`J ${this.id} ${this.filed.events} ${this.filed.sessions} ${this.filed.ingest_counters}`, ...this.carryOver()].join('\n')}\n`,
    );
    await handle.write(header, 0, header.length, 0);
    this.handle = handle;
    this.currentPath = path;
    this.segmentBytes = header.length;
    this.segmentHasGroups = false;
  }

  async close(): Promise<void> {
    await this.durable();
    await this.handle?.close();
    this.handle = null;
  }
}

export const heldLine = (record: HeldRecord) => `H ${JSON.stringify(record)}`;

const LETTER_TABLE: Record<string, JournalTable> = Object.fromEntries(JOURNAL_TABLES.map((t) => [TABLE_LETTER[t], t]));

/**
 * A new segment, its SEGMENT_BYTES laid out in zeros and synced once, so the records written into
 * it later change no file size: each group's synchronous write then flushes data only, cheaper than
 * appending, which syncs the file's size too (docs/benchmarks.md). It is opened
 * again with O_DSYNC for the groups. Never an existing file: each segment holds one journal's
 * records only.
 */
async function createSegmentFile(path: string): Promise<FileHandle> {
  const laidOut = await open(path, 'wx+');
  const zeros = Buffer.alloc(2 ** 20);
  for (let at = 0; at < SEGMENT_BYTES; at += zeros.length) await laidOut.write(zeros, 0, zeros.length, at);
  await laidOut.sync();
  await laidOut.close();
  return open(path, constants.O_RDWR | constants.O_DSYNC);
}
