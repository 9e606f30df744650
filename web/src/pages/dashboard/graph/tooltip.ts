import type { Annotation } from '@contracts/annotations';
import { METRIC_DESCRIPTIONS } from '@contracts/metrics';
import { formatMetric, formatPercent, formatPoints } from '../../../format';
import { annotationsIn } from './annotations';
import { partialText } from './buckets';
import type { Series } from './series';

/** A bucket's label as a reader says it, by the interval: "Tue, 9 Jan 2024", "9 Jan, 14:00", "Week of 8 Jan 2024", "January 2024". */
export function bucketTitle(label: string, interval: string): string {
  const time = new Date(`${label.replace(' ', 'T')}${label.length === 10 ? 'T00:00:00' : ''}Z`);
  const format = (options: Intl.DateTimeFormatOptions) => time.toLocaleString(undefined, { ...options, timeZone: 'UTC' });
  if (interval === 'minute' || interval === 'hour') return format({ day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hour12: false });
  if (interval === 'week') return `Week of ${format({ day: 'numeric', month: 'short', year: 'numeric' })}`;
  if (interval === 'month') return format({ month: 'long', year: 'numeric' });
  return format({ weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
}

/** A change as the top stats show it: "↑ 12%", or percentage points for rates ("↓ 3 pts"). */
export function changeText(metric: string, change: number | null | undefined): string {
  if (change === null || change === undefined) return '—';
  const kind = metric in METRIC_DESCRIPTIONS ? METRIC_DESCRIPTIONS[metric as keyof typeof METRIC_DESCRIPTIONS].change : 'percent';
  const arrow = change > 0 ? '↑ ' : change < 0 ? '↓ ' : '';
  return `${arrow}${kind === 'percent' ? formatPercent(Math.abs(change)) : formatPoints(Math.abs(change))}`;
}

export interface TooltipContent {
  title: string;
  /** Why the bucket's figure is not like the others: the range cuts it short, or it is still filling. */
  status: string | null;
  rows: { key: 'current' | 'previous'; label: string; value: string }[];
  change: string | null;
  notes: string[];
}

/** What the tooltip says of bucket `i`: its date, the figure, the compared bucket's date and figure, the change, and the notes on its days. */
export function tooltipContent(
  series: Series,
  i: number,
  metric: string,
  label: string,
  annotations: readonly Annotation[],
  currency?: string,
): TooltipContent {
  const bucket = series.labels[i] ?? '';
  const rows: TooltipContent['rows'] = [{ key: 'current', label, value: formatMetric(metric, series.values[i], currency) }];
  if (series.previous && series.previousLabels) {
    rows.push({
      key: 'previous',
      label: bucketTitle(series.previousLabels[i] ?? '', series.interval),
      value: formatMetric(metric, series.previous[i], currency),
    });
  }
  const days = series.partial[i];
  const cut = days === null || days === undefined ? null : partialText(days, series.interval);
  const filling = i === series.presentIndex;
  return {
    title: bucketTitle(bucket, series.interval),
    status: cut && filling ? `${cut}, in progress` : filling ? 'In progress' : cut,
    rows,
    change: series.changes ? changeText(metric, series.changes[i]) : null,
    notes: annotationsIn(annotations, bucket, series.interval).map((a) => a.note),
  };
}
