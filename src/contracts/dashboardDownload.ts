import { z } from 'zod';

/** A JSON text in a query-string value, parsed; a text that is no JSON is refused with a sentence. */
const jsonText = z
  .string()
  .max(64 * 1024)
  .transform((text, context) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      context.addIssue({ code: 'custom', message: 'must be JSON (the filters array of a v2 query)' });
      return z.NEVER;
    }
  });

/**
 * The query string of the dashboard's ZIP download (GET /app/api/sites/:domain/dashboard.zip and
 * /app/api/share/:slug/dashboard.zip): the view as the dashboard asks the engine for it — a preset
 * (`28d`, `month`…) or two days joined by a comma, the filters as the query API's JSON array, and
 * `imports=false` to leave imported data out. The engine validates the range and the filters.
 */
export const dashboardDownloadQuery = z.strictObject({
  date_range: z
    .string()
    .min(1)
    .max(40)
    .transform((text): string | string[] => (text.includes(',') ? text.split(',') : text)),
  filters: jsonText.optional(),
  imports: z.enum(['true', 'false']).optional(),
});
export type DashboardDownloadQuery = z.infer<typeof dashboardDownloadQuery>;
