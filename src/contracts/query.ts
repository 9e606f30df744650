import { z } from 'zod';

/**
 * The answer of the query engine (src/query/run/engine.ts), as POST /api/v2/query, the dashboards'
 * POST /app/api/sites/:domain/query and /app/api/share/:slug/query send it, and as the v1 stats
 * routes and the assistant tools read it. The request is validated by the engine itself
 * (src/query/request/v2.ts).
 */

const pair = z.tuple([z.string(), z.string()]);

export const resultRow = z.object({
  dimensions: z.array(z.string()),
  metrics: z.array(z.number().nullable()),
  /** With `include.comparisons`: the earlier figures and each metric's change (src/query/metrics.ts `change`). */
  comparison: z.object({ dimensions: z.array(z.string()), metrics: z.array(z.number().nullable()), change: z.array(z.number().nullable()) }).optional(),
});
export type ResultRow = z.infer<typeof resultRow>;

export const metricWarning = z.object({ code: z.string(), warning: z.string() });
export type MetricWarning = z.infer<typeof metricWarning>;

export const INTERVALS = ['minute', 'hour', 'day', 'week', 'month'] as const;

export const queryMeta = z.object({
  interval: z.enum(INTERVALS),
  /** Which tables answered: raw events, roll-ups, imported data. */
  sources: z.array(z.string()),
  sample_rate: z.number(),
  /** The row of the time bucket still in progress, if one is listed. */
  present_index: z.number().nullable(),
  /** Per metric, its first warning, and any further ones in `also`. */
  metric_warnings: z.record(z.string(), metricWarning.extend({ also: z.array(metricWarning).optional() })),
  /** Per revenue metric, the currency its figures are in; by goal (display name) when grouped by goals of differing currencies (src/query/sql/revenue.ts). */
  currency: z.record(z.string(), z.union([z.string(), z.record(z.string(), z.string())])).optional(),
  time_labels: z.array(z.string()).optional(),
  total_rows: z.number().optional(),
  sampling: z
    .object({
      rate: z.number(),
      scaled_metrics: z.array(z.string()),
      direct_metrics: z.array(z.string()),
      warnings: z.array(metricWarning).optional(),
    })
    .optional(),
  imports_included: z.boolean().optional(),
  imports_skip_reason: z.string().optional(),
  imports_warning: z.string().optional(),
});
export type QueryMeta = z.infer<typeof queryMeta>;

/** The query as resolved: aliases replaced, the date range as two ISO times in the site's zone, options spelled out. */
export const queryEcho = z.object({
  site_id: z.string(),
  metrics: z.array(z.string()),
  date_range: pair,
  dimensions: z.array(z.string()),
  filters: z.array(z.unknown()),
  order_by: z.array(z.tuple([z.string(), z.enum(['asc', 'desc'])])),
  pagination: z.object({ limit: z.number(), offset: z.number() }),
  include: z.object({
    comparisons: z
      .object({ mode: z.enum(['previous_period', 'year_over_year', 'custom']), date_range: pair, match_day_of_week: z.literal(true).optional() })
      .optional(),
    time_labels: z.literal(true).optional(),
    total_rows: z.literal(true).optional(),
    trim_relative_date_range: z.literal(true).optional(),
    imports: z.literal(true).optional(),
  }),
  timezone: z.string(),
  exact: z.boolean(),
});
export type QueryEcho = z.infer<typeof queryEcho>;

export const queryResponse = z.object({ results: z.array(resultRow), meta: queryMeta, query: queryEcho });
export type QueryResponse = z.infer<typeof queryResponse>;
