import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import type { EventStore } from '../stores/clickhouse/eventStore.js';
import type { MetaDb } from '../stores/meta/database.js';
import { createLeases, type Leases, NODE_ID, readLease } from '../stores/meta/leases.js';
import { getSite, type Site } from '../stores/meta/sites.js';
import { exportSite } from './exportResponse.js';
import { type ExportRange, exportFileName, streamSiteExport } from './siteExport.js';

/** How long a prepared export waits to be downloaded before its file is deleted. */
export const PREPARED_EXPORT_KEPT_MS = 24 * 3_600_000;

export interface ExportJob {
  id: string;
  siteId: number;
  range: ExportRange;
  /** The download's name, as the direct download names it. */
  fileName: string;
  status: 'preparing' | 'ready' | 'failed';
  createdAt: number;
  finishedAt: number | null;
  bytes: number | null;
  error: string | null;
  /**
   * The exports instance writing it (its lease `export:<id>` in the metadata store); null while it
   * waits for a worker to take it up; absent in records of older versions.
   */
  holder?: string | null;
}

export interface ExportJobs {
  /**
   * Records an export of the site, to be written to a file in the background, one export at a
   * time: by this node when it writes exports (the worker role), else by a worker that takes it up.
   */
  start(site: Site, range: ExportRange): ExportJob;
  /** The site's exports, newest first; those older than PREPARED_EXPORT_KEPT_MS are gone. */
  list(siteId: number): ExportJob[];
  /** A ready export of the site and the path of its file, or undefined. */
  ready(siteId: number, id: string): { job: ExportJob; path: string } | undefined;
  /** Deletes an export and its file; false when the site has no such export. */
  remove(siteId: number, id: string): boolean;
  /** Abandons the export being written; the files stay for the next process. */
  stop(): void;
  /** Takes up the exports waiting for a worker (a node that writes exports runs it every PICK_UP_MS); tests call it. */
  pickUp(): Promise<void>;
  /**
   * Marks failed the exports being written by a node that died: their lease expired (or was never
   * taken within a lease period). Runs at start and every third of a lease period; tests call it.
   */
  sweep(): Promise<void>;
}

/** What an export's record file holds: the job as listed (written by this module, parsed all the same). */
const RECORD = z.object({
  id: z.string().regex(/^[0-9a-f]{24}$/),
  siteId: z.number().int(),
  range: z.object({ from: z.string(), to: z.string() }),
  fileName: z.string(),
  status: z.enum(['preparing', 'ready', 'failed']),
  createdAt: z.number(),
  finishedAt: z.number().nullable(),
  bytes: z.number().nullable(),
  error: z.string().nullable(),
  holder: z.string().nullable().optional(),
});

/** Exports instances of this process that have not stopped: one that stopped is known dead without asking the store. */
const liveHolders = new Set<string>();

export const INTERRUPTED_EXPORT = 'The service restarted while this export was being written: prepare it again.';

const leaseName = (id: string) => `export:${id}`;

/** How often a node that writes exports looks for exports recorded by other nodes (docs/scaling.md, Roles). */
const PICK_UP_MS = 1_000;

/**
 * Exports prepared in the background for sites too large to download while one waits: a job
 * produces the file, and the settings screen offers it when ready (docs/export.md). The ZIP streams from the
 * event store's background-jobs connection into a file under `<data dir>/exports`, so memory stays
 * as flat as the direct download's. Each export's record sits beside its file (`<id>.json`), so
 * a restarted service lists its exports again: ready ones still download, one being written when
 * the service stopped is shown as failed, to be prepared again.
 *
 * Several nodes share the folder (FILES_DIR, a volume they all mount): every node lists every
 * record. Exports are written by workers (docs/scaling.md, Roles): a node that does not write them
 * records the export with no holder, and a worker takes it up within PICK_UP_MS, claiming the lease
 * `export:<id>` in the metadata store (so one worker writes it) and naming itself its holder. The
 * holder renews the lease while it is queued and written; when it dies another node finds the
 * lease expired within a lease period and marks the export failed with the same sentence.
 */
export interface ExportJobsDeps {
  db: MetaDb;
  events: EventStore;
  clock: Clock;
  dataDir: string;
  leasePeriodMs?: number;
  /** Whether this node writes exports (the worker role; src/app.ts); true unless given. */
  writes?: boolean;
}

export function createExportJobs(deps: ExportJobsDeps): ExportJobs {
  const jobs = new PreparedExports(deps);
  jobs.begin();
  return jobs;
}

class PreparedExports implements ExportJobs {
  private readonly writes: boolean;
  private readonly folder: ExportFolder;
  // Each instance is its own holder: a stopped one's exports are taken as interrupted at once.
  private readonly holder = `${NODE_ID}/exports/${randomBytes(4).toString('hex')}`;
  private readonly leases: Leases;
  /** This instance's exports still preparing: their leases are renewed. */
  private readonly mine = new Set<string>();
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;
  private writing: Readable | null = null;
  private writingId: string | null = null;
  private picking: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private pickUpTimer: NodeJS.Timeout | undefined;
  /** A sweep at the soonest expiry of the other holders' leases, when it comes before the next regular one. */
  private atExpiry: NodeJS.Timeout | undefined;

  constructor(private readonly deps: ExportJobsDeps) {
    this.writes = deps.writes ?? true;
    this.folder = new ExportFolder(join(deps.dataDir, 'exports'), deps.clock, this.mine);
    this.leases = createLeases({ db: deps.db, clock: deps.clock, holder: this.holder, periodMs: deps.leasePeriodMs });
  }

  /** Reads the folder, then renews, sweeps and (a writer) picks up on timers. */
  begin(): void {
    liveHolders.add(this.holder);
    this.folder.scan(true);
    this.timer = setInterval(
      () =>
        void this.renew()
          .then(() => this.sweep())
          .catch(() => {}),
      Math.floor(this.leases.periodMs / 3),
    );
    this.timer.unref();
    void this.sweep().catch(() => {});
    if (!this.writes) return;
    this.pickUpTimer = setInterval(() => void this.pickUp(), PICK_UP_MS);
    this.pickUpTimer.unref();
    void this.pickUp();
  }

  start(site: Site, range: ExportRange): ExportJob {
    this.expire();
    const now = this.deps.clock.now();
    const job: ExportJob = {
      id: randomBytes(12).toString('hex'),
      siteId: site.id,
      range,
      fileName: exportFileName(site.domain, range.to),
      status: 'preparing',
      createdAt: now,
      finishedAt: null,
      bytes: null,
      error: null,
      holder: this.writes ? this.holder : null,
    };
    this.folder.jobs.set(job.id, job);
    if (this.writes) this.mine.add(job.id);
    this.folder.record(job);
    // Taken before the record is a lease period old, so no other node takes it for a dead one's.
    if (this.writes)
      this.enqueue(
        job,
        this.leases.claim(leaseName(job.id)).catch(() => false),
        async () => site,
      );
    return job;
  }

  list(siteId: number): ExportJob[] {
    this.folder.scan(false);
    this.expire();
    return [...this.folder.jobs.values()].filter((job) => job.siteId === siteId).sort((a, b) => b.createdAt - a.createdAt);
  }

  ready(siteId: number, id: string): { job: ExportJob; path: string } | undefined {
    this.folder.scan(false);
    this.expire();
    const job = this.folder.jobs.get(id);
    return job && job.siteId === siteId && job.status === 'ready' ? { job, path: this.folder.path(id) } : undefined;
  }

  remove(siteId: number, id: string): boolean {
    const job = this.folder.jobs.get(id);
    if (!job || job.siteId !== siteId) return false;
    this.folder.forget(job);
    return true;
  }

  stop(): void {
    // The export being written is abandoned; its record says so to the next process.
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.pickUpTimer);
    clearTimeout(this.atExpiry);
    liveHolders.delete(this.holder);
    this.writing?.destroy();
    for (const id of this.mine) void this.leases.release(leaseName(id)).catch(() => {});
    this.mine.clear();
    this.folder.jobs.clear();
  }

  async sweep(): Promise<void> {
    if (this.stopped) return;
    this.folder.scan(false);
    const now = this.deps.clock.now();
    let soonest = Number.POSITIVE_INFINITY;
    for (const job of [...this.folder.jobs.values()]) {
      // One waiting for a worker has no holder to lose.
      if (job.status !== 'preparing' || job.holder === null || this.mine.has(job.id)) continue;
      const lease = await readLease(this.deps.db, leaseName(job.id));
      // A lease not taken yet is given a period: its holder claims it just after writing the record.
      const dead = lease ? lease.expiresAt <= now : now - job.createdAt > this.leases.periodMs;
      if (!dead) {
        soonest = Math.min(soonest, lease ? lease.expiresAt - now : job.createdAt + this.leases.periodMs - now + 1);
        continue;
      }
      await this.failDeadHolder(job);
    }
    // A holder that died is found at its lease's expiry, so within one lease period of its last renewal.
    if (soonest < Math.floor(this.leases.periodMs / 3) && !this.stopped) {
      clearTimeout(this.atExpiry);
      this.atExpiry = setTimeout(() => void this.sweep().catch(() => {}), soonest);
      this.atExpiry.unref();
    }
  }

  /** Taking the lease makes this node the only one to mark it, and a late renewal of the dead holder fail. */
  private async failDeadHolder(job: ExportJob): Promise<void> {
    if (!(await this.leases.claim(leaseName(job.id)))) return;
    // Unless its holder finished it (or it was removed) since the folder was read.
    const current = this.folder.reread(job.id);
    if (current?.status === 'preparing' && current.holder === job.holder) {
      this.folder.jobs.set(current.id, current);
      this.folder.interrupted(current);
    }
    await this.leases.release(leaseName(job.id));
  }

  /**
   * Takes up the exports other nodes recorded for a worker: the lease decides which worker writes
   * each, and the record, read again once it is held, that nobody wrote it meanwhile.
   */
  pickUp(): Promise<void> {
    this.picking ??= (async () => {
      if (this.stopped || !this.writes) return;
      this.folder.scan(false);
      for (const job of [...this.folder.jobs.values()]) {
        if (this.stopped || job.status !== 'preparing' || job.holder !== null) continue;
        if (!(await this.leases.claim(leaseName(job.id)))) continue;
        const current = this.folder.reread(job.id);
        if (this.stopped || current?.status !== 'preparing' || current.holder !== null) {
          await this.leases.release(leaseName(job.id));
          continue;
        }
        current.holder = this.holder;
        this.folder.jobs.set(current.id, current);
        this.mine.add(current.id);
        this.folder.record(current);
        this.enqueue(current, Promise.resolve(true), () => getSite(this.deps.db, current.siteId));
      }
    })()
      .catch(() => {})
      .finally(() => {
        this.picking = null;
      });
    return this.picking;
  }

  /** Queues one of this instance's exports, once its lease is `claimed`; the site is read when its turn comes. */
  private enqueue(job: ExportJob, claimed: Promise<boolean>, site: () => Promise<Site | undefined>): void {
    this.queue = this.queue.then(async () => {
      if (!(await claimed)) this.mine.delete(job.id);
      if (this.stopped || !this.folder.jobs.has(job.id) || !this.mine.has(job.id)) return;
      const current = await site().catch(() => undefined);
      if (current && current.deletedAt === null) return this.write(job, current);
      Object.assign(job, { status: 'failed', finishedAt: this.deps.clock.now(), error: 'The site was deleted.' });
      this.folder.record(job);
      this.mine.delete(job.id);
      await this.leases.release(leaseName(job.id)).catch(() => {});
    });
  }

  private async renew(): Promise<void> {
    for (const id of [...this.mine]) {
      if (await this.leases.renew(leaseName(id)).catch(() => true)) continue;
      // Another node found this instance's lease expired and failed the export: stop writing it.
      this.mine.delete(id);
      if (this.writingId === id) this.writing?.destroy();
    }
  }

  private expire(): void {
    const now = this.deps.clock.now();
    for (const job of this.folder.jobs.values()) if (job.finishedAt !== null && now - job.finishedAt > PREPARED_EXPORT_KEPT_MS) this.folder.forget(job);
  }

  private async write(job: ExportJob, site: Site): Promise<void> {
    const { folder } = this;
    const part = `${folder.path(job.id)}.part`;
    try {
      folder.ensure();
      this.writingId = job.id;
      this.writing = streamSiteExport(this.deps.events.jobs, await exportSite(this.deps.db, site), job.range);
      await pipeline(this.writing, createWriteStream(part));
      // Removed meanwhile, here or through another node (its record is gone): nothing is kept.
      if (this.stopped || !folder.jobs.has(job.id) || !this.mine.has(job.id) || !existsSync(folder.recordPath(job.id))) return;
      renameSync(part, folder.path(job.id));
      Object.assign(job, { status: 'ready', bytes: statSync(folder.path(job.id)).size, finishedAt: this.deps.clock.now() });
      folder.record(job);
    } catch (error) {
      rmSync(part, { force: true });
      if (this.stopped || !this.mine.has(job.id) || !existsSync(folder.recordPath(job.id))) return;
      Object.assign(job, {
        status: 'failed',
        finishedAt: this.deps.clock.now(),
        error: `The export could not be written: ${error instanceof Error ? error.message : String(error)}`,
      });
      if (folder.jobs.has(job.id)) folder.record(job);
    } finally {
      this.writing = null;
      this.writingId = null;
      if (this.mine.delete(job.id)) await this.leases.release(leaseName(job.id)).catch(() => {});
      // Removed on the node that recorded it: nothing of it stays here either.
      if (!existsSync(folder.recordPath(job.id))) {
        folder.jobs.delete(job.id);
        for (const file of [part, folder.path(job.id)]) rmSync(file, { force: true });
      }
    }
  }
}

/** The exports folder (FILES_DIR/exports, shared by nodes): each export's record (`<id>.json`) beside its file (`<id>.zip`). */
class ExportFolder {
  readonly jobs = new Map<string, ExportJob>();

  constructor(
    private readonly dir: string,
    private readonly clock: Clock,
    /** The exports this instance is writing: their records are its own, not re-read. */
    private readonly mine: Set<string>,
  ) {
    this.ensure();
  }

  ensure(): void {
    mkdirSync(this.dir, { recursive: true });
  }

  path(id: string): string {
    return join(this.dir, `${id}.zip`);
  }

  recordPath(id: string): string {
    return join(this.dir, `${id}.json`);
  }

  /** Written aside and renamed, so another node never reads a record halfway. */
  record(job: ExportJob): void {
    const file = this.recordPath(job.id);
    writeFileSync(`${file}.tmp`, JSON.stringify(job));
    renameSync(`${file}.tmp`, file);
  }

  /** The record as another node may have rewritten it since it was read; undefined once removed. */
  reread(id: string): ExportJob | undefined {
    const parsed = RECORD.safeParse(readJson(this.recordPath(id)));
    return parsed.success ? parsed.data : undefined;
  }

  interrupted(job: ExportJob): void {
    Object.assign(job, { status: 'failed', finishedAt: this.clock.now(), error: INTERRUPTED_EXPORT });
    this.record(job);
    rmSync(`${this.path(job.id)}.part`, { force: true });
  }

  forget(job: ExportJob): void {
    this.jobs.delete(job.id);
    this.mine.delete(job.id);
    for (const file of [this.path(job.id), `${this.path(job.id)}.part`, this.recordPath(job.id)]) rmSync(file, { force: true });
  }

  /**
   * Reads the records in the folder (every node's): a record that cannot be read, or a ready one
   * without its file, is removed; one being written by an instance of this process that stopped
   * (or by a version that kept no holder) is failed at once; other nodes' are left to `sweep`, and
   * those waiting for a worker to `pickUp`.
   */
  scan(first: boolean): void {
    const seen = new Set<string>();
    const files = readdirSync(this.dir);
    for (const file of files) {
      if (!file.endsWith('.json')) continue;
      const id = file.slice(0, -'.json'.length);
      if (this.mine.has(id)) {
        seen.add(id);
        continue;
      }
      const parsed = RECORD.safeParse(readJson(join(this.dir, file)));
      if (!parsed.success || `${parsed.data.id}.json` !== file || (parsed.data.status === 'ready' && !existsSync(this.path(parsed.data.id)))) {
        // Later, it may be another node's record or file caught halfway: it is only passed over.
        if (first) rmSync(join(this.dir, file), { force: true });
        continue;
      }
      const job: ExportJob = parsed.data;
      seen.add(job.id);
      this.jobs.set(job.id, job);
      // One waiting for a worker (holder null) is no writer's: a worker takes it up.
      const sameProcess = job.holder === undefined || (typeof job.holder === 'string' && job.holder.startsWith(`${NODE_ID}/`) && !liveHolders.has(job.holder));
      if (job.status === 'preparing' && sameProcess) this.interrupted(job);
    }
    for (const id of this.jobs.keys()) if (!seen.has(id)) this.jobs.delete(id);
    // Parts left by a writer that is gone; another live node's export being written keeps its own.
    if (first)
      for (const file of files)
        if (file.endsWith('.part') && this.jobs.get(file.slice(0, 24))?.status !== 'preparing') rmSync(join(this.dir, file), { force: true });
  }
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}
