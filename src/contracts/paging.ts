import { z } from 'zod';

/**
 * Plausible's cursor pagination (src/api/pagination.ts): `after` or `before`, opaque cursors from
 * an answer's `meta`, and `limit`; query-string values, so strings. A list's own fields come
 * first when these are spread in: a refusal names the accepted fields in that order.
 */
export const pageQuery = z.strictObject({
  after: z.string().optional(),
  before: z.string().optional(),
  limit: z.string().optional(),
});

export const pageMeta = z.object({ after: z.string().nullable(), before: z.string().nullable(), limit: z.number() });
export type PageMeta = z.infer<typeof pageMeta>;
