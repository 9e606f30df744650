import { z } from 'zod';

/**
 * The answer of the query engine (src/query/run/engine.ts), as POST /api/v2/query, the dashboards'
 * POST /app/api/sites/:domain/query and /app/api/share/:slug/query send it, and as the v1 stats
 * routes and the assistant tools read it.
 */

const pair = z.tuple([z.string(), z.string()]);

/**
 * What an empty visit attribute (no UTM tag, no browser known, …) is reported and filtered as
 * (src/query/catalog.ts): `is_not` it keeps only the rows that have a value.
 */
export const NOT_SET = '(not set)';

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

/** The bounds of one query request (docs/query-api.md); the engine checks the filters' own bounds by hand. */
/**
 * `filterValueLength`: a value is a page, a source, a property value…, whose stored columns hold at
 * most a few kilobytes (a URL is at most 2,048 characters in practice); longer ones can match
 * nothing and only swell the statement past what the engine parses (max_query_size).
 */
export const QUERY_LIMITS = {
  dimensions: 5,
  filters: 32,
  filterValues: 1000,
  filterValueLength: 2048,
  filterDepth: 16,
  pageSize: 10_000,
  defaultPageSize: 100,
} as const;

const comparisonSchema = z.strictObject({
  mode: z.enum(['previous_period', 'year_over_year', 'custom'], 'must be one of previous_period, year_over_year, custom'),
  date_range: z.tuple([z.string(), z.string()], 'must be a pair of ISO dates').optional(),
  match_day_of_week: z.boolean('must be true or false').optional(),
});

/**
 * POST /api/v2/query (and the dashboards' query routes): the request's structure, with messages
 * that say where it is wrong; the assistant-tool server publishes the same shape. Filters are
 * checked by the engine (src/query/request/v2.ts).
 */
export const queryRequest = z.strictObject({
  site_id: z.string("must be the site's domain as a string").min(1, 'must name a site'),
  metrics: z.array(z.string('must be a metric name'), 'must be an array of metric names').min(1, 'must name at least one metric'),
  date_range: z.union([z.string(), z.tuple([z.string(), z.string()])], 'must be a preset such as "7d" or a pair of ISO dates'),
  dimensions: z
    .array(z.string('must be a dimension name'), 'must be an array of dimension names')
    .max(QUERY_LIMITS.dimensions, `may hold at most ${QUERY_LIMITS.dimensions} dimensions`)
    .optional(),
  filters: z.array(z.unknown(), 'must be an array of filters').max(QUERY_LIMITS.filters, `may hold at most ${QUERY_LIMITS.filters} filters`).optional(),
  order_by: z
    .array(z.tuple([z.string(), z.enum(['asc', 'desc'], 'direction must be "asc" or "desc"')], 'each entry must be [metric or dimension, "asc" | "desc"]'))
    .optional(),
  pagination: z
    .strictObject({
      limit: z
        .number()
        .int('must be a whole number')
        .min(1, 'must be at least 1')
        .max(QUERY_LIMITS.pageSize, `may be at most ${QUERY_LIMITS.pageSize.toLocaleString('en')}`)
        .optional(),
      offset: z.number().int('must be a whole number').min(0, 'must be 0 or more').optional(),
    })
    .optional(),
  include: z
    .strictObject({
      comparisons: comparisonSchema.optional(),
      time_labels: z.boolean().optional(),
      total_rows: z.boolean().optional(),
      imports: z.boolean('must be true or false').optional(),
      trim_relative_date_range: z.boolean().optional(),
    })
    .optional(),
  timezone: z.string('must be an IANA time zone name').optional(),
  exact: z.boolean('must be true or false').optional(),
});
