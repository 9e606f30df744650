/** Numbers as people read them: 1.2k, 3m 20s, 45 %, €12.50; null (nothing to compare with) as "—". */
export function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const abs = Math.abs(value);
  if (abs >= 1_000_000) return `${(value / 1_000_000).toFixed(abs >= 10_000_000 ? 0 : 1).replace(/\.0$/, '')}M`;
  if (abs >= 10_000) return `${Math.round(value / 1000)}k`;
  if (abs >= 1_000) return `${(value / 1000).toFixed(1).replace(/\.0$/, '')}k`;
  return Number.isInteger(value) ? String(value) : value.toFixed(abs < 10 ? 2 : 1).replace(/\.?0+$/, '');
}

export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '—';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}

export const formatPercent = (value: number | null | undefined) => (value === null || value === undefined ? '—' : `${formatNumber(value)}%`);

export function formatMoney(value: number | null | undefined, currency: string): string {
  if (value === null || value === undefined) return '—';
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(value);
  } catch {
    return `${value.toFixed(2)} ${currency}`;
  }
}

/** How each metric is shown. */
export function formatMetric(metric: string, value: number | null | undefined, currency = 'EUR'): string {
  if (metric === 'visit_duration' || metric === 'time_on_page') return formatDuration(value);
  if (
    metric === 'bounce_rate' ||
    metric === 'conversion_rate' ||
    metric === 'exit_rate' ||
    metric === 'scroll_depth' ||
    metric === 'group_conversion_rate' ||
    metric === 'percentage'
  )
    return formatPercent(value);
  if (metric.includes('revenue')) return formatMoney(value, currency);
  return formatNumber(value);
}

/** Column headings of the metrics, short enough for a panel. */
export const METRIC_HEADINGS: Record<string, string> = {
  visitors: 'Visitors',
  visits: 'Visits',
  pageviews: 'Pageviews',
  events: 'Events',
  bounce_rate: 'Bounce',
  visit_duration: 'Duration',
  exit_rate: 'Exit rate',
  time_on_page: 'Time on page',
  scroll_depth: 'Scroll',
  conversion_rate: 'CR',
  percentage: 'Share',
  total_revenue: 'Revenue',
  average_revenue: 'Average',
};

/** A moment (an ISO time or epoch milliseconds) in the reader's locale and zone; none as "—". */
export const formatTime = (iso: string | number | null | undefined) => (iso == null ? '—' : new Date(iso).toLocaleString());
/** A day in the reader's locale, its month spelled out. */
export const formatDay = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
