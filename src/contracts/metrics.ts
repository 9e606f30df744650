/**
 * What a reader is told of each built-in metric: its name in words, the unit its figures are in,
 * and how a comparison reports its change. The metric registry (src/query/metrics.ts) takes its
 * `change` from here and adds what the engine needs (scope, SQL, merges); the web app labels and
 * formats figures by it, and the assistant tools name units by it.
 *
 * - `unit`: `count` (visitors, visits, events), `percent` (0–100), `seconds`, `ratio` (pageviews per
 *   visit) or `currency` (in the revenue goal's currency, named in the answer's `meta.currency`);
 * - `change`: a whole percentage of the earlier figure (`percent`), percentage points (`points`,
 *   bounce rate) or percentage points to one decimal (`points1`, conversion and exit rates), as
 *   the reference reports them (docs/query-api.md "Comparisons").
 */
export interface MetricDescription {
  label: string;
  unit: 'count' | 'percent' | 'seconds' | 'ratio' | 'currency';
  change: 'percent' | 'points' | 'points1';
}

export const METRIC_DESCRIPTIONS = {
  visitors: { label: 'Unique visitors', unit: 'count', change: 'percent' },
  visits: { label: 'Total visits', unit: 'count', change: 'percent' },
  pageviews: { label: 'Total pageviews', unit: 'count', change: 'percent' },
  events: { label: 'Total events', unit: 'count', change: 'percent' },
  views_per_visit: { label: 'Views per visit', unit: 'ratio', change: 'percent' },
  percentage: { label: 'Share of visitors', unit: 'percent', change: 'percent' },
  bounce_rate: { label: 'Bounce rate', unit: 'percent', change: 'points' },
  visit_duration: { label: 'Visit duration', unit: 'seconds', change: 'percent' },
  time_on_page: { label: 'Time on page', unit: 'seconds', change: 'percent' },
  scroll_depth: { label: 'Scroll depth', unit: 'percent', change: 'percent' },
  exit_rate: { label: 'Exit rate', unit: 'percent', change: 'points1' },
  conversion_rate: { label: 'Conversion rate', unit: 'percent', change: 'points1' },
  group_conversion_rate: { label: 'Group conversion rate', unit: 'percent', change: 'points1' },
  total_revenue: { label: 'Total revenue', unit: 'currency', change: 'percent' },
  average_revenue: { label: 'Average revenue', unit: 'currency', change: 'percent' },
  revenue_per_visitor: { label: 'Revenue per visitor', unit: 'currency', change: 'percent' },
} as const satisfies Record<string, MetricDescription>;

/** A built-in metric's name. */
export type MetricName = keyof typeof METRIC_DESCRIPTIONS;

/** Whether a name is a built-in metric's (own keys only: "constructor" is not a metric). */
export const isMetricName = (name: string): name is MetricName => Object.hasOwn(METRIC_DESCRIPTIONS, name);
