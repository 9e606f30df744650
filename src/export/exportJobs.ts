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
import type { Site } from '../stores/meta/sites.js';
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
  /** The exports instance writing it (its lease `export:<id>` in the metadata store); absent in records of older versions. */
  holder?: string;
}

export interface ExportJobs {
  /** Queues an export of the site; it is written to a file in the background, one export at a time. */
  start(site: Site, range: ExportRange): ExportJob;
  /** The site's exports, newest first; those older than PREPARED_EXPORT_KEPT_MS are gone. */
  list(siteId: number): ExportJob[];
  /** A ready export of the site and the path of its file, or undefined. */
  ready(siteId: number, id: string): { job: ExportJob; path: string } | undefined;
  /** Deletes an export and its file; false when the site has no such export. */
  remove(siteId: number, id: string): boolean;
  /** Abandons the export being written; the files stay for the next process. */
  stop(): void;
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
  holder: z.string().optional(),
});

/** Exports instances of this process that have not stopped: one that stopped is known dead without asking the store. */
const liveHolders = new Set<string>();

export const INTERRUPTED_EXPORT = 'The service restarted while this export was being written: prepare it again.';

const leaseName = (id: string) => `export:${id}`;

/**
 * Exports prepared in the background for sites too large to download while one waits (issue 15:
 * "a background job that produces the file and shows it when ready"). The ZIP streams from the
 * event store's background-jobs connection into a file under `<data dir>/exports`, so memory stays
 * as flat as the direct download's. Each export's record sits beside its file (`<id>.json`), so
 * a restarted service lists its exports again: ready ones still download, one being written when
 * the service stopped is shown as failed, to be prepared again.
 *
 * Several nodes share the folder (FILES_DIR, a volume they all mount): every node lists every
 * record, and the instance writing an export holds the lease `export:<id>` in the metadata store,
 * renewed while it is queued and written. When that holder dies another node finds its lease
 * expired within a lease period and marks the export failed with the same sentence.
 */
export function createExportJobs(deps: { db: MetaDb; events: EventStore; clock: Clock; dataDir: string; leasePeriodMs?: number }): ExportJobs {
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
  // Written aside and renamed, so another node never reads a record halfway.
  const record = (job: ExportJob) => {
    const file = join(dir, `${job.id}.json`);
    writeFileSync(`${file}.tmp`, JSON.stringify(job));
    renameSync(`${file}.tmp`, file);
  };
  const interrupted = (job: ExportJob) => {
    Object.assign(job, { status: 'failed', finishedAt: deps.clock.now(), error: INTERRUPTED_EXPORT });
    record(job);
    rmSync(`${path(job.id)}.part`, { force: true });
  };

  const forget = (job: ExportJob) => {
    jobs.delete(job.id);
    mine.delete(job.id);
    for (const file of [path(job.id), `${path(job.id)}.part`, join(dir, `${job.id}.json`)]) rmSync(file, { force: true });
  };

  /**
   * Reads the records in the folder (every node's): a record that cannot be read, or a ready one
   * without its file, is removed; one being written by an instance of this process that stopped
   * (or by a version that kept no holder) is failed at once; other nodes' are left to `sweep`.
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
      const sameProcess = job.holder === undefined || (job.holder.startsWith(`${NODE_ID}/`) && !liveHolders.has(job.holder));
      if (job.status === 'preparing' && sameProcess) interrupted(job);
    }
    for (const id of jobs.keys()) if (!seen.has(id)) jobs.delete(id);
    // Parts left by a writer that is gone; another live node's export being written keeps its own.
    if (first)
      for (const file of files) if (file.endsWith('.part') && jobs.get(file.slice(0, 24))?.status !== 'preparing') rmSync(join(dir, file), { force: true });
  };

  mkdirSync(dir, { recursive: true });
  scan(true);

  const sweep = async () => {
    if (stopped) return;
    const now = deps.clock.now();
    for (const job of [...jobs.values()]) {
      if (job.status !== 'preparing' || mine.has(job.id)) continue;
      const lease = await readLease(deps.db, leaseName(job.id));
      // A lease not taken yet is given a period: its holder claims it just after writing the record.
      const dead = lease ? lease.expiresAt <= now : now - job.createdAt > leases.periodMs;
      if (!dead || job.status !== 'preparing') continue;
      // Taking the lease makes this node the only one to mark it, and a late renewal of the dead holder fail.
      if (!(await leases.claim(leaseName(job.id)))) continue;
      interrupted(job);
      await leases.release(leaseName(job.id));
    }
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
      if (stopped || !jobs.has(job.id) || !mine.has(job.id)) return;
      renameSync(part, path(job.id));
      Object.assign(job, { status: 'ready', bytes: statSync(path(job.id)).size, finishedAt: deps.clock.now() });
      record(job);
    } catch (error) {
      rmSync(part, { force: true });
      if (stopped || !mine.has(job.id)) return;
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
        holder,
      };
      jobs.set(job.id, job);
      mine.add(job.id);
      record(job);
      // Taken before the record is a lease period old, so no other node takes it for a dead one's.
      const claimed = leases.claim(leaseName(job.id)).catch(() => false);
      queue = queue.then(async () => {
        if (!(await claimed)) mine.delete(job.id);
        return stopped || !jobs.has(job.id) || !mine.has(job.id) ? undefined : write(job, site);
      });
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
      liveHolders.delete(holder);
      writing?.destroy();
      for (const id of mine) void leases.release(leaseName(id)).catch(() => {});
      mine.clear();
      jobs.clear();
    },
    sweep,
  };
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}
