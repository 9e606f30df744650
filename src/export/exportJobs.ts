import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import type { EventStore } from '../stores/clickhouse/eventStore.js';
import type { MetaDb } from '../stores/meta/database.js';
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
});

export const INTERRUPTED_EXPORT = 'The service restarted while this export was being written: prepare it again.';

/**
 * Exports prepared in the background for sites too large to download while one waits (issue 15:
 * "a background job that produces the file and shows it when ready"). The ZIP streams from the
 * event store's background-jobs connection into a file under `<data dir>/exports`, so memory stays
 * as flat as the direct download's. Each export's record sits beside its file (`<id>.json`), so
 * a restarted service lists its exports again: ready ones still download, one being written when
 * the service stopped is shown as failed, to be prepared again.
 */
export function createExportJobs(deps: { db: MetaDb; events: EventStore; clock: Clock; dataDir: string }): ExportJobs {
  const dir = join(deps.dataDir, 'exports');
  const jobs = new Map<string, ExportJob>();
  let queue: Promise<void> = Promise.resolve();
  let stopped = false;
  let writing: Readable | null = null;
  const path = (id: string) => join(dir, `${id}.zip`);
  const record = (job: ExportJob) => writeFileSync(join(dir, `${job.id}.json`), JSON.stringify(job));

  const forget = (job: ExportJob) => {
    jobs.delete(job.id);
    for (const file of [path(job.id), `${path(job.id)}.part`, join(dir, `${job.id}.json`)]) rmSync(file, { force: true });
  };

  // The exports a previous process left: a record that cannot be read, or a ready one without its file, is removed.
  mkdirSync(dir, { recursive: true });
  for (const file of readdirSync(dir)) {
    if (file.endsWith('.part')) rmSync(join(dir, file), { force: true });
    if (!file.endsWith('.json')) continue;
    const parsed = RECORD.safeParse(readJson(join(dir, file)));
    if (!parsed.success || `${parsed.data.id}.json` !== file || (parsed.data.status === 'ready' && !existsSync(path(parsed.data.id)))) {
      rmSync(join(dir, file), { force: true });
      continue;
    }
    const job: ExportJob = parsed.data;
    jobs.set(job.id, job);
    if (job.status === 'preparing') {
      Object.assign(job, { status: 'failed', finishedAt: deps.clock.now(), error: INTERRUPTED_EXPORT });
      record(job);
    }
  }

  const expire = () => {
    const now = deps.clock.now();
    for (const job of jobs.values()) if (job.finishedAt !== null && now - job.finishedAt > PREPARED_EXPORT_KEPT_MS) forget(job);
  };

  async function write(job: ExportJob, site: Site): Promise<void> {
    const part = `${path(job.id)}.part`;
    try {
      mkdirSync(dir, { recursive: true });
      writing = streamSiteExport(deps.events.jobs, await exportSite(deps.db, site), job.range);
      await pipeline(writing, createWriteStream(part));
      if (stopped || !jobs.has(job.id)) return;
      renameSync(part, path(job.id));
      Object.assign(job, { status: 'ready', bytes: statSync(path(job.id)).size, finishedAt: deps.clock.now() });
      record(job);
    } catch (error) {
      rmSync(part, { force: true });
      if (stopped) return;
      Object.assign(job, {
        status: 'failed',
        finishedAt: deps.clock.now(),
        error: `The export could not be written: ${error instanceof Error ? error.message : String(error)}`,
      });
      if (jobs.has(job.id)) record(job);
    } finally {
      writing = null;
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
      };
      jobs.set(job.id, job);
      record(job);
      queue = queue.then(() => (stopped || !jobs.has(job.id) ? undefined : write(job, site)));
      return job;
    },
    list(siteId) {
      expire();
      return [...jobs.values()].filter((job) => job.siteId === siteId).sort((a, b) => b.createdAt - a.createdAt);
    },
    ready(siteId, id) {
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
      writing?.destroy();
      jobs.clear();
    },
  };
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}
