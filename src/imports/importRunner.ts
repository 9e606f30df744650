import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import { importEventFile } from '../ingest/historicalImport.js';
import type { Ingestion } from '../ingest/ingestion.js';
import { oldestImportable } from '../rollups/retention.js';
import { deleteStatement } from '../stores/clickhouse/deleteRows.js';
import type { EventStore } from '../stores/clickhouse/eventStore.js';
import type { MetaDb } from '../stores/meta/database.js';
import { getImport, overlappingImports, type SiteImport, unfinishedImports, updateImport } from '../stores/meta/imports.js';
import { createLeases, type HeldLease, type Leases, readLease } from '../stores/meta/leases.js';
import { getSite, type Site } from '../stores/meta/sites.js';
import { publishEvent } from '../webhooks/outbox.js';
import { convertRecord, IMPORT_TABLES, ImportRowError, type ImportTable, parseImportFileName } from './importFiles.js';
import { UploadError, uploadEntries } from './uploadEntries.js';

const ROWS_PER_INSERT = 10_000;

/**
 * Where an upload waits for its import (removed when the import ends, either way): `imports/` in
 * FILES_DIR (DATA_DIR unless set), which several nodes share, so any worker can run or restart it.
 */
export function uploadPath(filesDir: string, importId: number): string {
  const dir = join(filesDir, 'imports');
  mkdirSync(dir, { recursive: true });
  return join(dir, `${importId}.upload`);
}

/** Left beside an upload once it arrived whole, so a worker on another node runs it at once. */
const wholeMarker = (filesDir: string, importId: number) => `${uploadPath(filesDir, importId)}.whole`;

/** Marks an import's upload as whole (src/imports/importHandOff.ts, for a worker on another node). */
export function markUploadWhole(filesDir: string, importId: number): void {
  writeFileSync(wholeMarker(filesDir, importId), '');
}

/** Removes an upload and its mark once its import has finished either way. */
function removeUpload(filesDir: string, importId: number): void {
  rmSync(uploadPath(filesDir, importId), { force: true });
  rmSync(wholeMarker(filesDir, importId), { force: true });
}

/** Deletes an import's rows from the daily tables (any node may: it is one statement per table). */
export async function deleteImportRows(events: EventStore, siteId: number, importId: number, range?: { from: string; to: string }): Promise<void> {
  const condition = `site_id = {site:UInt64} AND import_id = {import:UInt64}${range ? ' AND date BETWEEN {from:Date} AND {to:Date}' : ''}`;
  for (const table of IMPORT_TABLES) {
    await events.jobs.command({
      query: deleteStatement(table.table, events.cluster, condition),
      query_params: { site: siteId, import: importId, ...range },
    });
  }
}

type Publish = (type: 'import.completed' | 'import.failed', data: Record<string, unknown>) => Promise<void>;

/** Another node took the import's lease over (this one stopped renewing it in time): it restarts it there. */
class LeaseLost extends Error {}

/** How often a runner looks for imports whose holder died, and for those it waits on elsewhere to finish. */
const SWEEP_MS = 5_000;

class ImportFailure extends Error {
  constructor(
    message: string,
    readonly file: string | null,
    readonly line: number | null,
  ) {
    super(message);
  }
}

export interface ImportRunner {
  /** Runs the import soon (one at a time, in order); resolves once it has run, either way. */
  enqueue(importId: number): Promise<void>;
  /** Deletes an import's rows from the daily tables. */
  deleteRows(siteId: number, importId: number, range?: { from: string; to: string }): Promise<void>;
  /** Resolves when nothing is queued or running (tests wait on it). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export interface ImportRunnerDeps {
  db: MetaDb;
  events: EventStore;
  ingestion: Ingestion;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The folder holding `imports/` (FILES_DIR). */
  dataDir: string;
  /** This node's leases; one over `db` and `clock` unless given (tests play several nodes). */
  leases?: Leases;
  /** Real time between looks for imports to take over or finished elsewhere. */
  sweepMs?: number;
}

/** One CSV file of an export into its daily table, in inserts of ROWS_PER_INSERT rows; answers the rows written. */
async function importFile(
  events: EventStore,
  lease: HeldLease,
  siteId: number,
  importId: number,
  table: ImportTable,
  name: string,
  range: { from: string; to: string },
  input: NodeJS.ReadableStream,
) {
  const parser = input.pipe(parse({ columns: true, bom: true, info: true, skip_empty_lines: true, max_record_size: 64 * 1024 }));
  let batch: Record<string, string | number>[] = [];
  let rows = 0;
  const flush = async () => {
    if (lease.lost()) throw new LeaseLost();
    if (batch.length === 0) return;
    await events.jobs.insert({ table: table.table, values: batch, format: 'JSONEachRow' });
    rows += batch.length;
    batch = [];
  };
  let checkedHeader = false;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      if (!checkedHeader) {
        if (!('date' in record)) throw new ImportFailure(`${name} has no "date" column; its first line must name the columns.`, name, 1);
        checkedHeader = true;
      }
      let row: Record<string, string | number> | null;
      try {
        row = convertRecord(table, record, range);
      } catch (error) {
        if (error instanceof ImportRowError) throw new ImportFailure(`${name}, line ${info.lines}: ${error.message}`, name, info.lines);
        throw error;
      }
      if (row) batch.push({ site_id: siteId, import_id: importId, ...row });
      if (batch.length >= ROWS_PER_INSERT) await flush();
    }
  } catch (error) {
    if (error instanceof ImportFailure || error instanceof LeaseLost) throw error;
    const line = (error as { lines?: number }).lines ?? null;
    throw new ImportFailure(`${name}${line ? `, line ${line}` : ''}: not valid CSV (${error instanceof Error ? error.message : String(error)}).`, name, line);
  }
  await flush();
  return rows;
}

async function runHeld(deps: ImportRunnerDeps, importId: number, lease: HeldLease): Promise<void> {
  const record = await getImport(deps.db, importId);
  if (!record || (record.status !== 'pending' && record.status !== 'running')) return;
  const site = await getSite(deps.db, record.siteId);
  const path = uploadPath(deps.dataDir, importId);
  const publish: Publish = async (type, data) => {
    if (site)
      await publishEvent(
        deps.db,
        { type, teamId: site.teamId, siteId: site.id, data: { import_id: importId, kind: record.kind, domain: site.domain, ...data } },
        deps.clock.now(),
      );
  };
  if (record.kind === 'events') return runEvents(deps, record, site, path, publish);
  return runTables(deps, record, site, path, lease, publish);
}

/** An export's CSV files into the daily tables; a completed import replaces the days it covers in earlier ones. */
async function runTables(deps: ImportRunnerDeps, record: SiteImport, site: Site | undefined, path: string, lease: HeldLease, publish: Publish): Promise<void> {
  const importId = record.id;
  const deleteRows = (siteId: number, id: number, range?: { from: string; to: string }) => deleteImportRows(deps.events, siteId, id, range);
  // A run cut off midway (a crash, here or on the node that held it) left some rows: start again from none.
  if (record.status === 'running') await deleteRows(record.siteId, importId);
  await updateImport(deps.db, importId, { status: 'running' });
  let upload: Awaited<ReturnType<typeof uploadEntries>> | undefined;
  let handedOver = false;
  try {
    if (!site || site.deletedAt !== null) throw new ImportFailure('The site was deleted.', null, null);
    upload = await uploadEntries(path, record.fileName);
    const files = exportFiles(upload.entries);
    const range = {
      from: files.map((f) => f.from).sort()[0] as string,
      to: files
        .map((f) => f.to)
        .sort()
        .at(-1) as string,
    };
    await updateImport(deps.db, importId, { fromDate: range.from, toDate: range.to, filesTotal: files.length, filesDone: 0 });
    let rows = 0;
    for (const [index, file] of files.entries()) {
      rows += await importFile(deps.events, lease, site.id, importId, file.table, file.name, { from: file.from, to: file.to }, await file.open());
      await updateImport(deps.db, importId, { filesDone: index + 1, rows });
    }
    for (const older of await overlappingImports(deps.db, site.id, range, importId)) await deleteRows(site.id, older.id, range);
    await updateImport(deps.db, importId, { status: 'completed', rows, finishedAt: deps.clock.now() });
    await publish('import.completed', { from: range.from, to: range.to, rows });
    if (lease.lost()) throw new LeaseLost();
  } catch (error) {
    // The node that took the lease over restarts the import from the upload: nothing is undone here.
    if (error instanceof LeaseLost) {
      handedOver = true;
      deps.log.warn({ importId }, 'import taken over by another node');
      return;
    }
    const failure =
      error instanceof ImportFailure
        ? error
        : error instanceof UploadError
          ? new ImportFailure(error.message, error.file, null)
          : new ImportFailure('The import failed on our side; the failure has been logged.', null, null);
    if (!(error instanceof ImportFailure) && !(error instanceof UploadError)) deps.log.error({ err: error, importId }, 'import failed');
    await deleteRows(record.siteId, importId).catch((cleanup) => deps.log.error({ err: cleanup, importId }, 'could not remove a failed import'));
    await updateImport(deps.db, importId, {
      status: 'failed',
      error: failure.message,
      errorFile: failure.file,
      errorLine: failure.line,
      finishedAt: deps.clock.now(),
    });
    await publish('import.failed', { error: failure.message, file: failure.file, line: failure.line });
  } finally {
    upload?.close();
    if (!handedOver) removeUpload(deps.dataDir, importId);
  }
}

/**
 * Raw events replayed through the collection pipeline (src/ingest/historicalImport.ts). Their
 * rows cannot be told apart from live ones afterwards, so a run cut off by a restart is not run
 * again (it would count its first lines twice): it fails, saying how far it got.
 */
async function runEvents(deps: ImportRunnerDeps, record: SiteImport, site: Site | undefined, path: string, publish: Publish): Promise<void> {
  const importId = record.id;
  try {
    if (record.status === 'running')
      throw new ImportFailure(
        `The import was cut off by a restart after about ${record.rows.toLocaleString('en')} lines, which stay stored; import the rest again.`,
        null,
        null,
      );
    await updateImport(deps.db, importId, { status: 'running' });
    if (!site || site.deletedAt !== null) throw new ImportFailure('The site was deleted.', null, null);
    const now = deps.clock.now();
    const report = await importEventFile(deps.ingestion, site.domain, path, now, oldestImportable(site, now), (rows) =>
      updateImport(deps.db, importId, { rows }),
    );
    await deps.ingestion.buffer.flush();
    await updateImport(deps.db, importId, { status: 'completed', rows: report.lines, report: JSON.stringify(report), finishedAt: deps.clock.now() });
    await publish('import.completed', { lines: report.lines, outcomes: report.outcomes, rejected: report.rejected_count });
  } catch (error) {
    const failure = error instanceof ImportFailure ? error : error instanceof AppError ? new ImportFailure(error.message, null, null) : null;
    if (!failure) deps.log.error({ err: error, importId }, 'events import failed');
    const message = failure?.message ?? 'The import failed on our side; the failure has been logged.';
    await updateImport(deps.db, importId, { status: 'failed', error: message, finishedAt: deps.clock.now() });
    await publish('import.failed', { error: message, file: null, line: null });
  } finally {
    removeUpload(deps.dataDir, importId);
  }
}

/** The upload's entries that are tables of the export, each with its days; a file that is none is refused by name. */
function exportFiles(entries: Awaited<ReturnType<typeof uploadEntries>>['entries']) {
  const files: { table: ImportTable; from: string; to: string; name: string; open(): Promise<NodeJS.ReadableStream> }[] = [];
  for (const entry of entries) {
    const parsed = parseImportFileName(entry.name);
    if ('error' in parsed) throw new ImportFailure(parsed.error, entry.name, null);
    if ('table' in parsed) files.push({ ...parsed, name: entry.name, open: entry.open });
  }
  if (files.length === 0) throw new ImportFailure(`The upload holds none of the export's tables (${IMPORT_TABLES.map((t) => t.base).join(', ')}).`, null, null);
  return files;
}

/**
 * A pending import nobody holds may still be receiving its upload (the route enqueues it once
 * whole): it is taken at once when the node that received it marked it whole, else only once its
 * upload has not changed for a lease period, seen over sweeps on the monotonic clock. (A running
 * one without a live lease lost its holder and is taken at once.)
 */
class SettlingUploads {
  private readonly still = new Map<number, { size: number; since: number }>();

  constructor(
    private readonly filesDir: string,
    private readonly periodMs: () => number,
  ) {}

  settled(importId: number): boolean {
    if (existsSync(wholeMarker(this.filesDir, importId))) return true;
    const size = statSync(uploadPath(this.filesDir, importId), { throwIfNoEntry: false })?.size ?? -1;
    const seen = this.still.get(importId);
    if (!seen || seen.size !== size) {
      this.still.set(importId, { size, since: performance.now() });
      return false;
    }
    return performance.now() - seen.since >= this.periodMs();
  }

  /** Forgets imports that are no longer unfinished. */
  keepOnly(open: ReadonlySet<number>): void {
    for (const id of [...this.still.keys()]) if (!open.has(id)) this.still.delete(id);
  }
}

/** Unfinished imports nobody holds a lease on (and whose upload has settled), and how soon the first lease held elsewhere expires. */
async function unheldImports(deps: ImportRunnerDeps, unfinished: SiteImport[], uploads: SettlingUploads): Promise<{ free: number[]; soonest: number }> {
  const now = deps.clock.now();
  let soonest = Number.POSITIVE_INFINITY;
  const free: number[] = [];
  for (const item of unfinished) {
    const lease = await readLease(deps.db, `import:${item.id}`);
    if (lease && lease.expiresAt > now) soonest = Math.min(soonest, lease.expiresAt - now);
    else if (item.status !== 'pending' || uploads.settled(item.id)) free.push(item.id);
  }
  return { free, soonest };
}

/** Runs the import if this node gets its lease; false when another node holds it. */
async function runClaimed(deps: ImportRunnerDeps, leases: Leases, importId: number): Promise<boolean> {
  const claimed = await leases.run(`import:${importId}`, (lease) => runHeld(deps, importId, lease));
  return claimed.ran;
}

/**
 * Imports run in the server process, one at a time, off the request path: an upload is saved to
 * disk, the route answers at once, and the import's record tells its progress and outcome. A
 * failed import leaves no row behind; a completed one replaces the days it covers in any earlier
 * import of the site, so importing the same range twice never doubles it.
 *
 * Each import runs under the lease `import:<id>` (src/stores/meta/leases.ts), so of several
 * workers exactly one runs it. A runner that finds an import held elsewhere waits for it to
 * finish; one whose holder died (its lease expired: within one lease period) is taken over and
 * restarted from its saved upload, as a restart of the single process does: a sweep queues every
 * unfinished import whose lease nobody holds (the claim decides who runs it) and wakes waiters on
 * imports another node ran once those finished.
 */
export function createImportRunner(deps: ImportRunnerDeps): ImportRunner & { sweep(): Promise<void> } {
  const leases = deps.leases ?? createLeases({ db: deps.db, clock: deps.clock, onError: (error) => deps.log.warn({ err: error }, 'could not renew a lease') });
  /** Imports held by another node that someone here waits on: woken once they finish. */
  const followed = new Set<number>();
  const queue: number[] = [];
  const waiters = new Map<number, (() => void)[]>();
  let running: Promise<void> | null = null;
  let stopped = false;

  const drain = () => {
    running ??= (async () => {
      while (queue.length > 0 && !stopped) {
        const next = queue.shift() as number;
        const ran = await runClaimed(deps, leases, next).catch((error) => {
          deps.log.error({ err: error, importId: next }, 'import runner failed');
          return true;
        });
        // Held by another node: whoever waits here is woken when it finishes there (sweep).
        if (!ran && waiters.has(next)) {
          followed.add(next);
          continue;
        }
        wake(next);
      }
    })().finally(() => {
      running = null;
      if (queue.length > 0 && !stopped) drain();
    });
    return running;
  };

  const wake = (importId: number) => {
    followed.delete(importId);
    for (const resolve of waiters.get(importId) ?? []) resolve();
    waiters.delete(importId);
  };

  // The sweep: imports cut off by a stop or a crash, here or on a node that died, run again from their saved upload.
  let sweeping: Promise<void> | null = null;
  const sweepMs = deps.sweepMs ?? SWEEP_MS;
  let atExpiry: NodeJS.Timeout | undefined;
  const uploads = new SettlingUploads(deps.dataDir, () => leases.periodMs);
  const sweep = () => {
    sweeping ??= (async () => {
      const unfinished = await unfinishedImports(deps.db);
      const open = new Set(unfinished.map((item) => item.id));
      for (const id of [...followed]) if (!open.has(id)) wake(id);
      uploads.keepOnly(open);
      const { free, soonest } = await unheldImports(deps, unfinished, uploads);
      for (const id of free) {
        if (stopped || queue.includes(id)) continue;
        followed.delete(id);
        queue.push(id);
      }
      if (queue.length > 0) void drain();
      // A holder that died is found at its lease's expiry, so within one lease period of its last
      // renewal, not up to a sweep later (at least a quarter second apart, on a clock that stands still).
      if (soonest < sweepMs && !stopped) {
        clearTimeout(atExpiry);
        atExpiry = setTimeout(() => void sweep(), Math.max(250, soonest + 1));
        atExpiry.unref();
      }
    })()
      .catch((error) => deps.log.error({ err: error }, 'could not look for imports to resume'))
      .finally(() => {
        sweeping = null;
      });
    return sweeping;
  };
  void sweep();
  const timer = setInterval(() => void sweep(), sweepMs);
  timer.unref();

  return {
    enqueue(importId) {
      const ran = new Promise<void>((resolve) => waiters.set(importId, [...(waiters.get(importId) ?? []), resolve]));
      queue.push(importId);
      void drain();
      return ran;
    },
    deleteRows: (siteId, importId, range) => deleteImportRows(deps.events, siteId, importId, range),
    async idle() {
      while (running) await running;
    },
    sweep,
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(atExpiry);
      await sweeping;
      await running;
      // Whoever waits on an import that will now run only after a restart learns it has not run.
      for (const wakes of waiters.values()) for (const wake of wakes) wake();
      waiters.clear();
    },
  };
}
