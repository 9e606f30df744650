import { z } from 'zod';
import { change, emptyValue, type QueryResponse, type ResultRow } from '../query/run/engine.js';

/**
 * Query answers reshaped for an assistant: rows as objects keyed by dimension and metric, the
 * resolved date range spelled out, each metric's unit named, and a note when rows were left out.
 */

const COUNT_METRICS = new Set(['visitors', 'visits', 'pageviews', 'events']);
const PERCENT_METRICS = new Set(['percentage', 'bounce_rate', 'scroll_depth', 'exit_rate', 'conversion_rate', 'group_conversion_rate']);
const SECONDS_METRICS = new Set(['visit_duration', 'time_on_page']);
const POINT_CHANGES = new Set(['bounce_rate', 'conversion_rate', 'group_conversion_rate', 'exit_rate']);

export function unitOf(metric: string, currency: string | undefined): string {
  if (COUNT_METRICS.has(metric)) return 'count';
  if (PERCENT_METRICS.has(metric)) return 'percent';
  if (SECONDS_METRICS.has(metric)) return 'seconds';
  if (metric === 'views_per_visit') return 'pageviews per visit';
  if (metric.includes('revenue')) return currency ? `currency (${currency})` : 'currency';
  return 'number';
}

/** How the engine's `change` reads (src/query/run/engine.ts): points for rates, otherwise percent. */
export const changeUnitOf = (metric: string) => (POINT_CHANGES.has(metric) ? 'percentage points' : 'percent');

// The engine's own echo and meta, read back with a schema rather than trusted by cast.
const echoSchema = z.object({
  site_id: z.string(),
  metrics: z.array(z.string()),
  dimensions: z.array(z.string()),
  date_range: z.tuple([z.string(), z.string()]),
  timezone: z.string(),
  pagination: z.object({ limit: z.number(), offset: z.number() }),
  include: z.object({ comparisons: z.object({ date_range: z.tuple([z.string(), z.string()]) }).optional() }),
});
const metaSchema = z.object({
  metric_warnings: z.record(z.string(), z.object({ code: z.string(), warning: z.string() })),
  currency: z.record(z.string(), z.string()).optional(),
  time_labels: z.array(z.string()).optional(),
  imports_included: z.boolean().optional(),
  imports_skip_reason: z.string().optional(),
  imports_warning: z.string().optional(),
});

export type Echo = z.infer<typeof echoSchema>;

export function readResponse(response: QueryResponse) {
  return { echo: echoSchema.parse(response.query), meta: metaSchema.parse(response.meta) };
}

const range = ([from, to]: [string, string], timezone: string) => ({ from, to, timezone });

export function unitsOf(echo: Echo, meta: z.infer<typeof metaSchema>): Record<string, string> {
  return Object.fromEntries(echo.metrics.map((m) => [m, unitOf(m, meta.currency?.[m])]));
}

/** Every bucket of a time series, empty ones included (the engine lists only buckets with data). */
export function fillTimeline(response: QueryResponse): ResultRow[] {
  const { echo, meta } = readResponse(response);
  if (!meta.time_labels) return response.results;
  const byLabel = new Map(response.results.map((row) => [row.dimensions[0], row]));
  return meta.time_labels.map((label) => byLabel.get(label) ?? { dimensions: [label], metrics: echo.metrics.map(emptyValue) });
}

export function reportJson(response: QueryResponse, rows: ResultRow[] = response.results) {
  const { echo, meta } = readResponse(response);
  const named = (dimensions: string[], metrics: (number | null)[]) => ({
    ...Object.fromEntries(echo.dimensions.map((d, i) => [d, dimensions[i]])),
    ...Object.fromEntries(echo.metrics.map((m, i) => [m, metrics[i] ?? null])),
  });
  const truncated = Object.values(meta.metric_warnings).some((w) => w.code === 'truncated_groups');
  const warnings = [
    ...new Set([
      ...Object.values(meta.metric_warnings)
        .filter((w) => w.code !== 'truncated_groups')
        .map((w) => w.warning),
      // Only a query imported data could not answer is worth a word: the engine also reports a
      // short interval before it knows the site has imports at all (src/query/plan/importedPlan.ts).
      ...(meta.imports_skip_reason === 'unsupported_query' && meta.imports_warning ? [meta.imports_warning] : []),
    ]),
  ];
  const { limit, offset } = echo.pagination;
  const comparison = echo.include.comparisons;
  return {
    site: echo.site_id,
    date_range: range(echo.date_range, echo.timezone),
    ...(comparison ? { compared_with: range(comparison.date_range, echo.timezone) } : {}),
    units: unitsOf(echo, meta),
    ...(comparison ? { change_units: Object.fromEntries(echo.metrics.map((m) => [m, changeUnitOf(m)])) } : {}),
    rows: rows.map((row) => ({
      ...named(row.dimensions, row.metrics),
      ...(row.comparison
        ? {
            previous: named(row.comparison.dimensions, row.comparison.metrics),
            change: Object.fromEntries(echo.metrics.map((m, i) => [m, row.comparison!.change[i] ?? null])),
          }
        : {}),
    })),
    ...(meta.imports_included ? { imported_data: "included: the figures add the site's imported history to its recorded events" } : {}),
    ...(warnings.length > 0 ? { warnings } : {}),
    ...(truncated
      ? { more: `Rows ${offset + 1}–${offset + rows.length} are shown and more exist; call again with offset ${offset + limit} for the next page.` }
      : {}),
  };
}

/** One metric this period against the previous one. */
export function comparedMetric(metric: string, value: number | null, previous: number | null, currency: string | undefined) {
  return { value, previous, change: change(metric, value, previous), unit: unitOf(metric, currency), change_unit: changeUnitOf(metric) };
}
