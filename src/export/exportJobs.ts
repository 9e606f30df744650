import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import type { EventStore } from '../stores/clickhouse/eventStore.js';
import type { MetaDb } from '../stores/meta/database.js';
import { createLeases, NODE_ID, readLease } from '../stores/meta/leases.js';
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
 * Exports prepared in the background for sites too large to download while one waits (issue 15:
 * "a background job that produces the file and shows it when ready"). The ZIP streams from the
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
export function createExportJobs(deps: {
  db: MetaDb;
  events: EventStore;
  clock: Clock;
  dataDir: string;
  leasePeriodMs?: number;
  /** Whether this node writes exports (the worker role; src/app.ts); true unless given. */
  writes?: boolean;
}): ExportJobs {
  const writes = deps.writes ?? true;
  const dir = join(deps.dataDir, 'exports');
  // Each instance is its own holder: a stopped one's exports are taken as interrupted at once.
  const holder = `${NODE_ID}/exports/${randomBytes(4).toString('hex')}`;
  const leases = createLeases({ db: deps.db, clock: deps.clock, holder, periodMs: deps.leasePeriodMs });
  liveHolders.add(holder);
  const jobs = new Map<string, ExportJob>();
  /** This instance's exports still preparing: their leases are renewed. */
  const mine = new Set<string>();
  let queue: Promise<void> = Promise.resolve();
  let stopped = false;
  let writing: Readable | null = null;
  const path = (id: string) => join(dir, `${id}.zip`);
  const recordPath = (id: string) => join(dir, `${id}.json`);
  // Written aside and renamed, so another node never reads a record halfway.
  const record = (job: ExportJob) => {
    const file = recordPath(job.id);
    writeFileSync(`${file}.tmp`, JSON.stringify(job));
    renameSync(`${file}.tmp`, file);
  };
  /** The record as another node may have rewritten it since it was read; undefined once removed. */
  const reread = (id: string): ExportJob | undefined => {
    const parsed = RECORD.safeParse(readJson(recordPath(id)));
    return parsed.success ? parsed.data : undefined;
  };
  const interrupted = (job: ExportJob) => {
    Object.assign(job, { status: 'failed', finishedAt: deps.clock.now(), error: INTERRUPTED_EXPORT });
    record(job);
    rmSync(`${path(job.id)}.part`, { force: true });
  };

  const forget = (job: ExportJob) => {
    jobs.delete(job.id);
    mine.delete(job.id);
    for (const file of [path(job.id), `${path(job.id)}.part`, recordPath(job.id)]) rmSync(file, { force: true });
  };

  /**
   * Reads the records in the folder (every node's): a record that cannot be read, or a ready one
   * without its file, is removed; one being written by an instance of this process that stopped
   * (or by a version that kept no holder) is failed at once; other nodes' are left to `sweep`, and
   * those waiting for a worker to `pickUp`.
   */
  const scan = (first: boolean) => {
    const seen = new Set<string>();
    const files = readdirSync(dir);
    for (const file of files) {
      if (!file.endsWith('.json')) continue;
      const id = file.slice(0, -'.json'.length);
      if (mine.has(id)) {
        seen.add(id);
        continue;
      }
      const parsed = RECORD.safeParse(readJson(join(dir, file)));
      if (!parsed.success || `${parsed.data.id}.json` !== file || (parsed.data.status === 'ready' && !existsSync(path(parsed.data.id)))) {
        // Later, it may be another node's record or file caught halfway: it is only passed over.
        if (first) rmSync(join(dir, file), { force: true });
        continue;
      }
      const job: ExportJob = parsed.data;
      seen.add(job.id);
      jobs.set(job.id, job);
      // One waiting for a worker (holder null) is no writer's: a worker takes it up.
      const sameProcess = job.holder === undefined || (typeof job.holder === 'string' && job.holder.startsWith(`${NODE_ID}/`) && !liveHolders.has(job.holder));
      if (job.status === 'preparing' && sameProcess) interrupted(job);
    }
    for (const id of jobs.keys()) if (!seen.has(id)) jobs.delete(id);
    // Parts left by a writer that is gone; another live node's export being written keeps its own.
    if (first)
      for (const file of files) if (file.endsWith('.part') && jobs.get(file.slice(0, 24))?.status !== 'preparing') rmSync(join(dir, file), { force: true });
  };

  mkdirSync(dir, { recursive: true });
  scan(true);

  /** A sweep at the soonest expiry of the other holders' leases, when it comes before the next regular one. */
  let atExpiry: NodeJS.Timeout | undefined;
  const sweep = async () => {
    if (stopped) return;
    scan(false);
    const now = deps.clock.now();
    let soonest = Number.POSITIVE_INFINITY;
    for (const job of [...jobs.values()]) {
      // One waiting for a worker has no holder to lose.
      if (job.status !== 'preparing' || job.holder === null || mine.has(job.id)) continue;
      const lease = await readLease(deps.db, leaseName(job.id));
      // A lease not taken yet is given a period: its holder claims it just after writing the record.
      const dead = lease ? lease.expiresAt <= now : now - job.createdAt > leases.periodMs;
      if (!dead) {
        soonest = Math.min(soonest, lease ? lease.expiresAt - now : job.createdAt + leases.periodMs - now + 1);
        continue;
      }
      // Taking the lease makes this node the only one to mark it, and a late renewal of the dead holder fail.
      if (!(await leases.claim(leaseName(job.id)))) continue;
      // Unless its holder finished it (or it was removed) since the folder was read.
      const current = reread(job.id);
      if (current?.status === 'preparing' && current.holder === job.holder) {
        jobs.set(current.id, current);
        interrupted(current);
      }
      await leases.release(leaseName(job.id));
    }
    // A holder that died is found at its lease's expiry, so within one lease period of its last renewal.
    if (soonest < Math.floor(leases.periodMs / 3) && !stopped) {
      clearTimeout(atExpiry);
      atExpiry = setTimeout(() => void sweep().catch(() => {}), soonest);
      atExpiry.unref();
    }
  };

  /** Queues one of this instance's exports, once its lease is `claimed`; the site is read when its turn comes. */
  const enqueue = (job: ExportJob, claimed: Promise<boolean>, site: () => Promise<Site | undefined>) => {
    queue = queue.then(async () => {
      if (!(await claimed)) mine.delete(job.id);
      if (stopped || !jobs.has(job.id) || !mine.has(job.id)) return;
      const current = await site().catch(() => undefined);
      if (current && current.deletedAt === null) return write(job, current);
      Object.assign(job, { status: 'failed', finishedAt: deps.clock.now(), error: 'The site was deleted.' });
      record(job);
      mine.delete(job.id);
      await leases.release(leaseName(job.id)).catch(() => {});
    });
  };

  /**
   * Takes up the exports other nodes recorded for a worker: the lease decides which worker writes
   * each, and the record, read again once it is held, that nobody wrote it meanwhile.
   */
  let picking: Promise<void> | null = null;
  const pickUp = () => {
    picking ??= (async () => {
      if (stopped || !writes) return;
      scan(false);
      for (const job of [...jobs.values()]) {
        if (stopped || job.status !== 'preparing' || job.holder !== null) continue;
        if (!(await leases.claim(leaseName(job.id)))) continue;
        const current = reread(job.id);
        if (stopped || current?.status !== 'preparing' || current.holder !== null) {
          await leases.release(leaseName(job.id));
          continue;
        }
        current.holder = holder;
        jobs.set(current.id, current);
        mine.add(current.id);
        record(current);
        enqueue(current, Promise.resolve(true), () => getSite(deps.db, current.siteId));
      }
    })()
      .catch(() => {})
      .finally(() => {
        picking = null;
      });
    return picking;
  };
  const renew = async () => {
    for (const id of [...mine]) {
      if (await leases.renew(leaseName(id)).catch(() => true)) continue;
      // Another node found this instance's lease expired and failed the export: stop writing it.
      mine.delete(id);
      if (writingId === id) writing?.destroy();
    }
  };
  let writingId: string | null = null;
  const timer = setInterval(
    () =>
      void renew()
        .then(sweep)
        .catch(() => {}),
    Math.floor(leases.periodMs / 3),
  );
  timer.unref();
  void sweep().catch(() => {});
  const pickUpTimer = writes ? setInterval(() => void pickUp(), PICK_UP_MS) : undefined;
  pickUpTimer?.unref();
  if (writes) void pickUp();

  const expire = () => {
    const now = deps.clock.now();
    for (const job of jobs.values()) if (job.finishedAt !== null && now - job.finishedAt > PREPARED_EXPORT_KEPT_MS) forget(job);
  };

  async function write(job: ExportJob, site: Site): Promise<void> {
    const part = `${path(job.id)}.part`;
    try {
      mkdirSync(dir, { recursive: true });
      writingId = job.id;
      writing = streamSiteExport(deps.events.jobs, await exportSite(deps.db, site), job.range);
      await pipeline(writing, createWriteStream(part));
      // Removed meanwhile, here or through another node (its record is gone): nothing is kept.
      if (stopped || !jobs.has(job.id) || !mine.has(job.id) || !existsSync(recordPath(job.id))) return;
      renameSync(part, path(job.id));
      Object.assign(job, { status: 'ready', bytes: statSync(path(job.id)).size, finishedAt: deps.clock.now() });
      record(job);
    } catch (error) {
      rmSync(part, { force: true });
      if (stopped || !mine.has(job.id) || !existsSync(recordPath(job.id))) return;
      Object.assign(job, {
        status: 'failed',
        finishedAt: deps.clock.now(),
        error: `The export could not be written: ${error instanceof Error ? error.message : String(error)}`,
      });
      if (jobs.has(job.id)) record(job);
    } finally {
      writing = null;
      writingId = null;
      if (mine.delete(job.id)) await leases.release(leaseName(job.id)).catch(() => {});
      // Removed on the node that recorded it: nothing of it stays here either.
      if (!existsSync(recordPath(job.id))) {
        jobs.delete(job.id);
        for (const file of [part, path(job.id)]) rmSync(file, { force: true });
      }
    }
  }

  return {
    start(site, range) {
      expire();
      const now = deps.clock.now();
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
        holder: writes ? holder : null,
      };
      jobs.set(job.id, job);
      if (writes) mine.add(job.id);
      record(job);
      // Taken before the record is a lease period old, so no other node takes it for a dead one's.
      if (writes)
        enqueue(
          job,
          leases.claim(leaseName(job.id)).catch(() => false),
          async () => site,
        );
      return job;
    },
    list(siteId) {
      scan(false);
      expire();
      return [...jobs.values()].filter((job) => job.siteId === siteId).sort((a, b) => b.createdAt - a.createdAt);
    },
    ready(siteId, id) {
      scan(false);
      expire();
      const job = jobs.get(id);
      return job && job.siteId === siteId && job.status === 'ready' ? { job, path: path(id) } : undefined;
    },
    remove(siteId, id) {
      const job = jobs.get(id);
      if (!job || job.siteId !== siteId) return false;
      forget(job);
      return true;
    },
    stop() {
      // The export being written is abandoned; its record says so to the next process.
      stopped = true;
      clearInterval(timer);
      clearInterval(pickUpTimer);
      clearTimeout(atExpiry);
      liveHolders.delete(holder);
      writing?.destroy();
      for (const id of mine) void leases.release(leaseName(id)).catch(() => {});
      mine.clear();
      jobs.clear();
    },
    sweep,
    pickUp,
  };
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}
