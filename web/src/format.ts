import { isMetricName, METRIC_DESCRIPTIONS, type MetricName } from '@contracts/metrics';

/** A shortened figure: one decimal while it is under 100 (10.5k, 12.3M), none above (123k); never a trailing ".0". */
const shortened = (scaled: number, unit: string) =>
  `${(Math.abs(scaled) < 100 ? scaled.toFixed(1) : Math.round(scaled).toString()).replace(/\.0$/, '')}${unit}`;

/** Numbers as people read them: 1.2k, 10.5k; null (nothing to compare with) as "—". */
export function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const abs = Math.abs(value);
  // 999,950 and up would read "1000k": they are a million already.
  if (abs >= 999_950) return shortened(value / 1_000_000, 'M');
  if (abs >= 1_000) return shortened(value / 1000, 'k');
  return Number.isInteger(value) ? String(value) : value.toFixed(abs < 10 ? 2 : 1).replace(/\.?0+$/, '');
}

/** The exact figure a shortened one stands for (for a title on hover): 10,512 rather than 10.5k. */
export const exactNumber = (value: number | null | undefined): string | undefined =>
  value === null || value === undefined ? undefined : value.toLocaleString(undefined, { maximumFractionDigits: 2 });

/** A count with its noun, singular for exactly one: "1 visitor", "0 visitors", "1.2k visitors". */
export const countOf = (value: number, noun: string): string => `${formatNumber(value)} ${noun}${value === 1 ? '' : 's'}`;

export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '—';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}

/**
 * The one rule for the figure of every percentage on the dashboard, Plausible's (the
 * `percentageFormatter` of its dashboard, assets/js/dashboard/util/number-formatter.ts at
 * https://github.com/plausible/analytics): one decimal, a trailing ".0" dropped (52.4, 51, 8.4);
 * two decimals under 0.1 that is not zero (0.05), so a small share does not read as nothing.
 * Rounded as written in decimals (29.45 to 29.5), which `toFixed` on the binary value is not.
 */
const PERCENT_FIGURE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1, useGrouping: false });
const SMALL_PERCENT_FIGURE = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
function percentFigure(value: number): string {
  const figure = (value !== 0 && Math.abs(value) < 0.1 ? SMALL_PERCENT_FIGURE : PERCENT_FIGURE).format(value);
  // A tiny negative rounds to nothing: no sign on "0".
  return /^-0(\.0+)?$/.test(figure) ? figure.slice(1) : figure;
}

/** A percentage by the one rule: 52.4%, 51%, 0.05%; none as "—". */
export const formatPercent = (value: number | null | undefined) => (value === null || value === undefined ? '—' : `${percentFigure(value)}%`);

/** A change of a rate in percentage points, by the same rule: "3 pts", "0.5 pts". */
export const formatPoints = (value: number | null | undefined) => (value === null || value === undefined ? '—' : `${percentFigure(value)} pts`);

export function formatMoney(value: number | null | undefined, currency: string): string {
  if (value === null || value === undefined) return '—';
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(value);
  } catch {
    return `${value.toFixed(2)} ${currency}`;
  }
}

/**
 * How each metric is shown, by the unit the metric registry gives it (src/contracts/metrics.ts):
 * durations, percentages and money in their own way, everything else (a custom property's
 * aggregate too) as a number.
 */
export function formatMetric(metric: string, value: number | null | undefined, currency = 'EUR'): string {
  const unit = isMetricName(metric) ? METRIC_DESCRIPTIONS[metric].unit : null;
  if (unit === 'seconds') return formatDuration(value);
  if (unit === 'percent') return formatPercent(value);
  if (unit === 'currency') return formatMoney(value, currency);
  return formatNumber(value);
}

/** The title (shown on hover) of a metric's figure that `formatMetric` shortened: the exact count; none when it is shown whole. */
export function exactFigure(metric: string, value: number | null | undefined): string | undefined {
  const unit = isMetricName(metric) ? METRIC_DESCRIPTIONS[metric].unit : null;
  if (unit === 'seconds' || unit === 'percent' || unit === 'currency' || value === null || value === undefined || Math.abs(value) < 1000) return undefined;
  return exactNumber(value);
}

/** Column headings of the metrics, short enough for a panel; every built-in metric has one. */
const METRIC_HEADINGS: Record<MetricName, string> = {
  visitors: 'Visitors',
  visits: 'Visits',
  pageviews: 'Pageviews',
  events: 'Events',
  views_per_visit: 'Views per visit',
  percentage: 'Share',
  bounce_rate: 'Bounce',
  visit_duration: 'Duration',
  time_on_page: 'Time on page',
  scroll_depth: 'Scroll',
  exit_rate: 'Exit rate',
  conversion_rate: 'CR',
  group_conversion_rate: 'Group CR',
  total_revenue: 'Revenue',
  average_revenue: 'Average',
  revenue_per_visitor: 'Per visitor',
};

/** A metric's column heading; a custom property's aggregate is headed by its own name. */
export const metricHeading = (metric: string): string => (isMetricName(metric) ? METRIC_HEADINGS[metric] : metric);

/** A moment (an ISO time or epoch milliseconds) in the reader's locale and zone; none as "—". */
export const formatTime = (iso: string | number | null | undefined) => (iso == null ? '—' : new Date(iso).toLocaleString());
/** A day in the reader's locale, its month spelled out. */
export const formatDay = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
