import { isMetricName, METRIC_DESCRIPTIONS } from '../contracts/metrics.js';
import type { QueryEcho, QueryMeta, QueryResponse, ResultRow } from '../contracts/query.js';
import { metricFacts } from '../query/metrics.js';
import { change, emptyValue } from '../query/run/engine.js';

/**
 * Query answers reshaped for an assistant: rows as objects keyed by dimension and metric, the
 * resolved date range spelled out, each metric's unit named, and a note when rows were left out.
 */

/** How the assistant names each unit of src/contracts/metrics.ts. */
const UNIT_WORDS = { count: 'count', percent: 'percent', seconds: 'seconds', ratio: 'pageviews per visit', currency: 'currency' } as const;

/** A revenue metric's currency in an answer's meta: one code, or one per goal when goals of differing currencies are grouped. */
export type MetricCurrency = NonNullable<QueryMeta['currency']>[string] | undefined;

/** A metric's unit as its description gives it; an aggregate of a custom property is a plain number. */
export function unitOf(metric: string, currency: MetricCurrency): string {
  if (!isMetricName(metric)) return 'number';
  const unit = METRIC_DESCRIPTIONS[metric].unit;
  if (unit === 'currency' && typeof currency === 'string') return `currency (${currency})`;
  return UNIT_WORDS[unit];
}

/** How the engine's `change` reads: the registry's change kind (src/query/metrics.ts), points for rates, otherwise percent. */
export const changeUnitOf = (metric: string) => (metricFacts(metric).change === 'percent' ? 'percent' : 'percentage points');

const range = ([from, to]: [string, string], timezone: string) => ({ from, to, timezone });

export function unitsOf(echo: QueryEcho, meta: QueryMeta): Record<string, string> {
  return Object.fromEntries(echo.metrics.map((m) => [m, unitOf(m, meta.currency?.[m])]));
}

/** Every bucket of a time series, empty ones included (the engine lists only buckets with data). */
export function fillTimeline(response: QueryResponse): ResultRow[] {
  const { query: echo, meta } = response;
  if (!meta.time_labels) return response.results;
  const byLabel = new Map(response.results.map((row) => [row.dimensions[0], row]));
  return meta.time_labels.map((label) => byLabel.get(label) ?? { dimensions: [label], metrics: echo.metrics.map(emptyValue) });
}

export function reportJson(response: QueryResponse, rows: ResultRow[] = response.results) {
  const { query: echo, meta } = response;
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
export function comparedMetric(metric: string, value: number | null, previous: number | null, currency: MetricCurrency) {
  return { value, previous, change: change(metric, value, previous), unit: unitOf(metric, currency), change_unit: changeUnitOf(metric) };
}
