import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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
  /** Deletes every file; an export being written is abandoned. */
  stop(): void;
}

/**
 * Exports prepared in the background for sites too large to download while one waits (issue 15:
 * "a background job that produces the file and shows it when ready"). The ZIP streams from the
 * event store's background-jobs connection into a file under `<data dir>/exports`, so memory stays
 * as flat as the direct download's. The list lives in the server process: a restart forgets it
 * and deletes the files, and people prepare the export again.
 */
export function createExportJobs(deps: { db: MetaDb; events: EventStore; clock: Clock; dataDir: string }): ExportJobs {
  const dir = join(deps.dataDir, 'exports');
  rmSync(dir, { recursive: true, force: true });
  const jobs = new Map<string, ExportJob>();
  let queue: Promise<void> = Promise.resolve();
  let stopped = false;
  let writing: Readable | null = null;
  const path = (id: string) => join(dir, `${id}.zip`);

  const forget = (job: ExportJob) => {
    jobs.delete(job.id);
    rmSync(path(job.id), { force: true });
    rmSync(`${path(job.id)}.part`, { force: true });
  };

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
    } catch (error) {
      rmSync(part, { force: true });
      if (stopped) return;
      Object.assign(job, {
        status: 'failed',
        finishedAt: deps.clock.now(),
        error: `The export could not be written: ${error instanceof Error ? error.message : String(error)}`,
      });
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
      stopped = true;
      writing?.destroy();
      jobs.clear();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
