import { z } from 'zod';

/**
 * The path parameters of the routes, each written once: the API names a site by `site_id` (its
 * domain), the web app's routes by `domain`, a team by its number.
 */

/** /api/v1/sites/:site_id/… */
export const siteIdParams = z.strictObject({ site_id: z.string().min(1).max(300) });

/** /api/v1/sites/:site_id/imports/:import_id */
export const importParams = siteIdParams.extend({ import_id: z.coerce.number().int().positive() });

/** /api/v1/sites/:site_id/annotations/:annotation_id */
export const annotationParams = siteIdParams.extend({ annotation_id: z.coerce.number().int().positive() });

/** /app/api/sites/:domain/… */
export const domainParams = z.strictObject({ domain: z.string().min(1).max(300) });

/** /app/api/sites/:domain/exports/:id: an export job's id (src/export/). */
export const exportJobParams = domainParams.extend({ id: z.string().regex(/^[0-9a-f]{24}$/) });

/** /app/api/sites/:domain/annotations/:id: one of a site's graph notes. */
export const domainItemParams = domainParams.extend({ id: z.coerce.number().int().positive() });

/** /app/api/teams/:team/… */
export const teamParams = z.strictObject({ team: z.coerce.number().int().positive() });

/** /app/api/teams/:team/<things>/:id: one of a team's API keys or notices. */
export const teamItemParams = teamParams.extend({ id: z.coerce.number().int().positive() });

/** /api/v1/sites/:site_id/segments/:segment_id */
export const segmentParams = siteIdParams.extend({ segment_id: z.coerce.number().int().positive() });
