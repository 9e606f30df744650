import { z } from 'zod';

export const MIN_FUNNEL_STEPS = 2;
export const MAX_FUNNEL_STEPS = 8;

/** PUT /api/v1/sites/funnels: a step names a goal by id or by display name. */
export const funnelPayload = z.strictObject({
  site_id: z.string(),
  name: z.string().min(1).max(120),
  steps: z
    .array(z.union([z.number().int().positive(), z.string().min(1)]))
    .min(MIN_FUNNEL_STEPS)
    .max(MAX_FUNNEL_STEPS),
});
export type FunnelPayload = z.infer<typeof funnelPayload>;

export const funnel = z.object({
  id: z.number(),
  name: z.string(),
  steps: z.array(z.object({ goal_id: z.number(), display_name: z.string().nullable() })),
});
export type Funnel = z.infer<typeof funnel>;

/** GET /api/v1/sites/funnels?site_id=… */
export const funnelList = z.object({ funnels: z.array(funnel) });
export type FunnelList = z.infer<typeof funnelList>;

/** GET /api/v1/sites/funnels/:funnel_id/report: its query string. */
export const funnelReportQuery = z.strictObject({ site_id: z.string(), from: z.string(), to: z.string() });

export const funnelStep = z.object({
  label: z.string(),
  visitors: z.number(),
  conversion_rate: z.string(),
  conversion_rate_step: z.string(),
  dropoff: z.number(),
  dropoff_percentage: z.string(),
});

/** POST /app/api/sites/:domain/funnel (and the shared dashboard's, and the assistant tool): which funnel, over which days and filters. */
export const funnelRequest = z.strictObject({
  site_id: z.string().min(1),
  funnel: z.string("must be the funnel's name").min(1),
  date_range: z.union([z.string(), z.tuple([z.string(), z.string()])]),
  filters: z.array(z.unknown()).optional(),
  timezone: z.string().optional(),
});

/** The funnel report (src/query/run/funnel.ts): POST /app/api/sites/:domain/funnel and the shared dashboard's. */
export const funnelReport = z.object({
  name: z.string(),
  steps: z.array(funnelStep),
  all_visitors: z.number(),
  entering_visitors: z.number(),
  entering_visitors_percentage: z.string(),
  never_entering_visitors: z.number(),
  never_entering_visitors_percentage: z.string(),
});
export type FunnelReport = z.infer<typeof funnelReport>;

/** GET /api/v1/sites/funnels/:funnel_id/report: the report with the funnel and the days it covers. */
export const funnelReportAnswer = funnelReport.extend({ funnel: z.object({ id: z.number(), name: z.string() }), from: z.string(), to: z.string() });
export type FunnelReportAnswer = z.infer<typeof funnelReportAnswer>;
