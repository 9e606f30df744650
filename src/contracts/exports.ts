import { z } from 'zod';

/** The query string (or the body, for a prepared export) of every export route: an optional range of site-local days. */
export const exportRangeQuery = z.strictObject({
  from: z.string().max(10).optional(),
  to: z.string().max(10).optional(),
});
export type ExportRangeQuery = z.infer<typeof exportRangeQuery>;

/** An export prepared in the background (POST and GET /app/api/sites/:domain/exports). */
export const preparedExport = z.object({
  id: z.string(),
  status: z.enum(['preparing', 'ready', 'failed']),
  from: z.string(),
  to: z.string(),
  file_name: z.string(),
  bytes: z.number().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  error: z.string().nullable(),
  download_url: z.string().nullable(),
});
export type PreparedExport = z.infer<typeof preparedExport>;

export const preparedExportList = z.object({ exports: z.array(preparedExport) });
export type PreparedExportList = z.infer<typeof preparedExportList>;
