import { type MetaDb, type MetaRecord, records } from './database.js';

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

/** An import's record: every column but who started it. */
const IMPORT_COLUMNS = [
  'id',
  'siteId',
  'kind',
  'fileName',
  'status',
  'fromDate',
  'toDate',
  'rows',
  'filesDone',
  'filesTotal',
  'error',
  'errorFile',
  'errorLine',
  'createdAt',
  'finishedAt',
  'report',
] as const;

/** Kind and status as the store writes them; a count kept as a 64-bit integer read as a number. */
const asImport = (row: Pick<MetaRecord<'imports'>, (typeof IMPORT_COLUMNS)[number]>): SiteImport => ({
  ...row,
  kind: row.kind === 'events' ? 'events' : 'export',
  status: row.status as ImportStatus,
  rows: Number(row.rows),
});

export async function createImport(
  db: MetaDb,
  input: { siteId: number; fileName: string; userId: number | null; kind?: ImportKind },
  now: number,
): Promise<SiteImport> {
  const row = await records(db)
    .insertInto('imports')
    .values({
      siteId: input.siteId,
      kind: input.kind ?? 'export',
      fileName: input.fileName,
      status: 'pending',
      fromDate: null,
      toDate: null,
      error: null,
      errorFile: null,
      errorLine: null,
      createdByUserId: input.userId,
      createdAt: now,
      finishedAt: null,
    })
    .returning(IMPORT_COLUMNS)
    .executeTakeFirstOrThrow();
  return asImport(row);
}

export async function getImport(db: MetaDb, importId: number): Promise<SiteImport | undefined> {
  const row = await records(db).selectFrom('imports').select(IMPORT_COLUMNS).where('id', '=', importId).executeTakeFirst();
  return row && asImport(row);
}

/** A site's imports, newest first, deleted ones left out. */
export async function listSiteImports(db: MetaDb, siteId: number): Promise<SiteImport[]> {
  const rows = await records(db)
    .selectFrom('imports')
    .select(IMPORT_COLUMNS)
    .where('siteId', '=', siteId)
    .where('status', '!=', 'deleted')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(asImport);
}

/** Imports waiting or interrupted (a restart during a run), oldest first. */
export async function unfinishedImports(db: MetaDb): Promise<SiteImport[]> {
  const rows = await records(db).selectFrom('imports').select(IMPORT_COLUMNS).where('status', 'in', ['pending', 'running']).orderBy('id').execute();
  return rows.map(asImport);
}

/** Completed imports of a site whose days overlap the range (they are replaced by a newer one). */
export async function overlappingImports(db: MetaDb, siteId: number, range: { from: string; to: string }, exceptId: number): Promise<SiteImport[]> {
  const rows = await records(db)
    .selectFrom('imports')
    .select(IMPORT_COLUMNS)
    .where('siteId', '=', siteId)
    .where('status', '=', 'completed')
    .where('kind', '=', 'export')
    .where('id', '!=', exceptId)
    .where('fromDate', '<=', range.to)
    .where('toDate', '>=', range.from)
    .execute();
  return rows.map(asImport);
}

export async function updateImport(
  db: MetaDb,
  importId: number,
  change: Partial<Omit<SiteImport, 'id' | 'siteId' | 'kind' | 'fileName' | 'createdAt'>>,
): Promise<void> {
  await records(db)
    .updateTable('imports')
    // Fields left undefined are left as they are.
    .set(change)
    .where('id', '=', importId)
    .execute();
}

/**
 * A site's completed imports of exports with their days: the only ones reports may read (running,
 * failed and deleted ones never; raw-event imports joined the site's own events).
 */
export async function completedImports(db: MetaDb, siteId: number): Promise<{ id: number; from: string; to: string }[]> {
  const rows = await records(db)
    .selectFrom('imports')
    .select(['id', 'fromDate', 'toDate'])
    .where('siteId', '=', siteId)
    .where('status', '=', 'completed')
    .where('kind', '=', 'export')
    .orderBy('id')
    .execute();
  return rows.flatMap((row) => (row.fromDate !== null && row.toDate !== null ? [{ id: row.id, from: row.fromDate, to: row.toDate }] : []));
}
