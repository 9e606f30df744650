import type { Selectable } from 'kysely';
import type { MetaDb } from './database.js';
import type { ImportsTable } from './schema.js';

export const IMPORT_STATUSES = ['pending', 'running', 'completed', 'failed', 'deleted'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
/** `export`: another export into the daily tables; `events`: raw events (NDJSON) through the collection pipeline. */
export const IMPORT_KINDS = ['export', 'events'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export interface SiteImport {
  id: number;
  siteId: number;
  kind: ImportKind;
  fileName: string;
  status: ImportStatus;
  fromDate: string | null;
  toDate: string | null;
  rows: number;
  filesDone: number;
  filesTotal: number;
  error: string | null;
  errorFile: string | null;
  errorLine: number | null;
  createdAt: number;
  finishedAt: number | null;
  /** An events import's report, as JSON text. */
  report: string | null;
}

const toImport = (row: Selectable<ImportsTable>): SiteImport => ({
  id: row.id,
  siteId: row.site_id,
  kind: row.kind === 'events' ? 'events' : 'export',
  fileName: row.file_name,
  status: row.status as ImportStatus,
  fromDate: row.from_date,
  toDate: row.to_date,
  rows: Number(row.rows),
  filesDone: row.files_done,
  filesTotal: row.files_total,
  error: row.error,
  errorFile: row.error_file,
  errorLine: row.error_line,
  createdAt: row.created_at,
  finishedAt: row.finished_at,
  report: row.report,
});

export async function createImport(
  db: MetaDb,
  input: { siteId: number; fileName: string; userId: number | null; kind?: ImportKind },
  now: number,
): Promise<SiteImport> {
  const row = await db
    .insertInto('imports')
    .values({
      site_id: input.siteId,
      kind: input.kind ?? 'export',
      file_name: input.fileName,
      status: 'pending',
      from_date: null,
      to_date: null,
      error: null,
      error_file: null,
      error_line: null,
      created_by_user_id: input.userId,
      created_at: now,
      finished_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toImport(row);
}

export async function getImport(db: MetaDb, importId: number): Promise<SiteImport | undefined> {
  const row = await db.selectFrom('imports').selectAll().where('id', '=', importId).executeTakeFirst();
  return row && toImport(row);
}

/** A site's imports, newest first, deleted ones left out. */
export async function listSiteImports(db: MetaDb, siteId: number): Promise<SiteImport[]> {
  const rows = await db.selectFrom('imports').selectAll().where('site_id', '=', siteId).where('status', '!=', 'deleted').orderBy('id', 'desc').execute();
  return rows.map(toImport);
}

/** Imports waiting or interrupted (a restart during a run), oldest first. */
export async function unfinishedImports(db: MetaDb): Promise<SiteImport[]> {
  const rows = await db.selectFrom('imports').selectAll().where('status', 'in', ['pending', 'running']).orderBy('id').execute();
  return rows.map(toImport);
}

/** Completed imports of a site whose days overlap the range (they are replaced by a newer one). */
export async function overlappingImports(db: MetaDb, siteId: number, range: { from: string; to: string }, exceptId: number): Promise<SiteImport[]> {
  const rows = await db
    .selectFrom('imports')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('status', '=', 'completed')
    .where('kind', '=', 'export')
    .where('id', '!=', exceptId)
    .where('from_date', '<=', range.to)
    .where('to_date', '>=', range.from)
    .execute();
  return rows.map(toImport);
}

export async function updateImport(
  db: MetaDb,
  importId: number,
  change: Partial<Omit<SiteImport, 'id' | 'siteId' | 'kind' | 'fileName' | 'createdAt'>>,
): Promise<void> {
  await db
    .updateTable('imports')
    .set({
      ...(change.status !== undefined ? { status: change.status } : {}),
      ...(change.fromDate !== undefined ? { from_date: change.fromDate } : {}),
      ...(change.toDate !== undefined ? { to_date: change.toDate } : {}),
      ...(change.rows !== undefined ? { rows: change.rows } : {}),
      ...(change.filesDone !== undefined ? { files_done: change.filesDone } : {}),
      ...(change.filesTotal !== undefined ? { files_total: change.filesTotal } : {}),
      ...(change.error !== undefined ? { error: change.error } : {}),
      ...(change.errorFile !== undefined ? { error_file: change.errorFile } : {}),
      ...(change.report !== undefined ? { report: change.report } : {}),
      ...(change.errorLine !== undefined ? { error_line: change.errorLine } : {}),
      ...(change.finishedAt !== undefined ? { finished_at: change.finishedAt } : {}),
    })
    .where('id', '=', importId)
    .execute();
}

/**
 * A site's completed imports of exports with their days: the only ones reports may read (running,
 * failed and deleted ones never; raw-event imports joined the site's own events).
 */
export async function completedImports(db: MetaDb, siteId: number): Promise<{ id: number; from: string; to: string }[]> {
  const rows = await db
    .selectFrom('imports')
    .select(['id', 'from_date', 'to_date'])
    .where('site_id', '=', siteId)
    .where('status', '=', 'completed')
    .where('kind', '=', 'export')
    .orderBy('id')
    .execute();
  return rows.flatMap((row) => (row.from_date !== null && row.to_date !== null ? [{ id: row.id, from: row.from_date, to: row.to_date }] : []));
}
