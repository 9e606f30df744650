import { z } from 'zod';

/** Imports of a site's history (docs/imports.md): /api/v1/sites/:site_id/imports and …/events/import. */

/** POST /api/v1/sites/:site_id/imports?file_name=…: the upload's query string. */
export const importUploadQuery = z.strictObject({ file_name: z.string().min(1).max(200) });

/** An events import's outcome counts and rejected lines (src/ingest/historicalImport.ts). */
export const importReport = z.object({
  lines: z.number(),
  outcomes: z.record(z.string(), z.number()),
  /** The first rejected lines (up to MAX_REPORTED_REJECTIONS, src/ingest/historicalImport.ts), by number. */
  rejected: z.array(z.object({ line: z.number(), reason: z.string() })),
  rejected_count: z.number(),
});
export type ImportReport = z.infer<typeof importReport>;

export const siteImport = z.object({
  id: z.number(),
  kind: z.enum(['export', 'events']),
  file_name: z.string(),
  status: z.enum(['pending', 'running', 'completed', 'failed', 'deleted']),
  from: z.string().nullable(),
  to: z.string().nullable(),
  rows: z.number(),
  files_done: z.number(),
  files_total: z.number(),
  error: z.object({ message: z.string(), file: z.string().nullable(), line: z.number().nullable() }).nullable(),
  created_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  report: importReport.nullable(),
});
export type SiteImport = z.infer<typeof siteImport>;

/**
 * Why an import cannot be deleted, or null when it can: the DELETE route's refusal and the
 * settings screen's note say the same, and the screen offers Delete only when this is null.
 */
export function importDeletionRefusal(item: Pick<SiteImport, 'kind' | 'status'>): { code: string; message: string } | null {
  if (item.status === 'pending' || item.status === 'running')
    return { code: 'import_running', message: 'This import is still running; delete it once it has finished.' };
  if (item.kind === 'events')
    return { code: 'events_import', message: 'Imported raw events joined the site’s own events and cannot be taken out again by import.' };
  return null;
}

/** GET /api/v1/sites/:site_id/imports. */
export const siteImportList = z.object({ imports: z.array(siteImport) });
export type SiteImportList = z.infer<typeof siteImportList>;

/** POST /api/v1/sites/:site_id/events/import, answered when the import has run: its report. */
export const eventImportOutcome = importReport.extend({ site_id: z.string(), stored: z.literal(true), import_id: z.number() });
export type EventImportOutcome = z.infer<typeof eventImportOutcome>;
