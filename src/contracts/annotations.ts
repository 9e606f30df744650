import { z } from 'zod';

export const MAX_ANNOTATION_LENGTH = 500;

/** A calendar day as `YYYY-MM-DD` that exists (no 2026-02-30). */
export const calendarDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day written YYYY-MM-DD, such as 2026-03-01')
  .refine((day) => {
    const time = Date.parse(`${day}T00:00:00Z`);
    // A malformed day fails the pattern above; this check still runs, so it must not throw.
    return Number.isNaN(time) || new Date(time).toISOString().startsWith(day);
  }, 'is not a day of the calendar');

/**
 * POST /api/v1/sites/:site_id/annotations and PUT …/:annotation_id (and the dashboard's own
 * routes): a note on one day, or on the days from `date` to `end_date`.
 */
export const annotationContent = z.strictObject({
  date: calendarDay,
  end_date: calendarDay.nullable().optional(),
  note: z.string().trim().min(1).max(MAX_ANNOTATION_LENGTH),
});
export type AnnotationContent = z.infer<typeof annotationContent>;

/** GET …/annotations?from=…&to=…: the notes touching those days (either bound may be left out). */
export const annotationDays = z.strictObject({ from: calendarDay.optional(), to: calendarDay.optional() });

export const annotation = z.object({
  id: z.number(),
  date: z.string(),
  end_date: z.string().nullable(),
  note: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Annotation = z.infer<typeof annotation>;

export const annotationList = z.object({ annotations: z.array(annotation) });
export type AnnotationList = z.infer<typeof annotationList>;
