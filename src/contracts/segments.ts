import { z } from 'zod';
import { QUERY_LIMITS } from './query.js';

export const MAX_SEGMENT_NAME_LENGTH = 120;
export const SEGMENT_TYPES = ['personal', 'site'] as const;

/**
 * What a segment holds, as Plausible's `segment_data`: the dashboard's filters (v2 filters, checked
 * by the query engine's own parser when saved) and how their values read (a code's country name).
 */
export const segmentData = z.strictObject({
  filters: z.array(z.unknown()).min(1).max(QUERY_LIMITS.filters),
  labels: z.record(z.string().max(300), z.string().max(300)).optional(),
});

/** POST /api/v1/sites/:site_id/segments */
export const segmentPayload = z.strictObject({
  name: z.string().trim().min(1).max(MAX_SEGMENT_NAME_LENGTH),
  type: z.enum(SEGMENT_TYPES).optional(),
  segment_data: segmentData,
});
export type SegmentPayload = z.infer<typeof segmentPayload>;

/** PATCH /api/v1/sites/:site_id/segments/:segment_id: any of the fields, the others kept. */
export const segmentChange = segmentPayload.partial();
export type SegmentChange = z.infer<typeof segmentChange>;

/** A segment as the API answers it (Plausible's shape). */
export const segment = z.object({
  id: z.number(),
  name: z.string(),
  type: z.enum(SEGMENT_TYPES),
  segment_data: z.object({ filters: z.array(z.unknown()), labels: z.record(z.string(), z.string()) }),
  owner_id: z.number().nullable(),
  owner_name: z.string().nullable(),
  inserted_at: z.string(),
  updated_at: z.string(),
});
export type Segment = z.infer<typeof segment>;

/** GET /api/v1/sites/:site_id/segments: the shared segments and the caller's personal ones, by name. */
export const segmentList = z.object({ segments: z.array(segment) });
export type SegmentList = z.infer<typeof segmentList>;
