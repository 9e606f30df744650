import type { QueryResult } from '../context';
import { type Interval, intervalsFor } from '../state';
import { partialDays } from './buckets';

/** The main graph's line: one value per bucket of the answered range, and the comparison's. */
export interface Series {
  labels: string[];
  values: (number | null)[];
  previous: (number | null)[] | null;
  /** Each bucket's compared bucket, as the engine labels it (the tooltip names its date). */
  previousLabels: string[] | null;
  /** Each bucket's change against the compared one, as the engine reports it (src/contracts/metrics.ts `change`). */
  changes: (number | null)[] | null;
  /** The bucket holding now (its figure still grows), as the engine places it among the labels. */
  presentIndex: number | null;
  /** Each bucket's days in the range when the range cuts it short (a week or month), else null. */
  partial: (number | null)[];
  interval: string;
  /** The intervals the answered range can be drawn in. */
  intervals: Interval[];
  comparisonLabel: string;
  /** Whether the site has imported data for this view (the switch shows), and why it is left out if it is. */
  imports: { applies: boolean; warning: string | null };
}

export type Comparison = { mode: string; date_range?: [string, string]; match_day_of_week?: true } | null;

const COMPARISON_LABELS: Record<string, string> = { previous_period: 'Previous period', year_over_year: 'A year before', custom: 'Compared range' };

/** The intervals an answered range can be drawn in: minutes for the realtime view, otherwise by its length in days. */
export function intervalsOf(result: QueryResult, dateRange: string | [string, string]): Interval[] {
  const [from, to] = result.query.date_range ?? [];
  const days = from && to ? (Date.parse(to) - Date.parse(from)) / 86_400_000 : 1;
  return dateRange === 'realtime' ? ['minute'] : intervalsFor(days);
}

/** A bucket label moved by so many milliseconds, written as the engine writes labels (a day, or a day and a time). */
function movedLabel(label: string, by: number): string {
  const time = Date.parse(`${label.replace(' ', 'T')}${label.length === 10 ? 'T00:00:00' : ''}Z`) + by;
  const iso = new Date(time).toISOString();
  return label.length === 10 ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/**
 * The compared bucket of every bucket: the engine's label where a row has one, otherwise the
 * bucket moved back as far as the compared range starts before the shown one.
 */
function comparedLabels(result: QueryResult, labels: string[], byLabel: Map<string | undefined, QueryResult['results'][number]>): string[] {
  const compared = result.query.include.comparisons?.date_range;
  const shownStart = result.query.date_range[0];
  const offset = compared ? Date.parse(compared[0]) - Date.parse(shownStart) : 0;
  return labels.map((label) => byLabel.get(label)?.comparison?.dimensions[0] ?? movedLabel(label, offset));
}

/** A time series answer as the graph draws it: every bucket of `time_labels`, empty ones as the metric reads when nothing happened. */
export function seriesOf(result: QueryResult, metric: string, comparison: Comparison, intervals: Interval[]): Series {
  const labels = result.meta.time_labels ?? [];
  const byLabel = new Map(result.results.map((row) => [row.dimensions[0], row]));
  const empty = ['visit_duration', 'time_on_page', 'scroll_depth'].includes(metric) ? null : 0;
  const interval = String(result.meta.interval ?? 'day');
  return {
    labels,
    values: labels.map((label) => byLabel.get(label)?.metrics[0] ?? empty),
    previous: comparison ? labels.map((label) => byLabel.get(label)?.comparison?.metrics[0] ?? empty) : null,
    previousLabels: comparison ? comparedLabels(result, labels, byLabel) : null,
    changes: comparison ? labels.map((label) => byLabel.get(label)?.comparison?.change[0] ?? null) : null,
    presentIndex: result.meta.present_index,
    partial: partialDays(labels, interval, result.query.date_range),
    interval,
    intervals,
    comparisonLabel: COMPARISON_LABELS[comparison?.mode ?? ''] ?? 'Comparison',
    // Only these two answers say the site has imported days in this range; the engine checks
    // the interval before it looks for imports, so "unsupported_interval" says nothing about them.
    imports: {
      applies: result.meta.imports_included === true || result.meta.imports_skip_reason === 'unsupported_query',
      warning: result.meta.imports_skip_reason === 'unsupported_query' && typeof result.meta.imports_warning === 'string' ? result.meta.imports_warning : null,
    },
  };
}

/** The series as a CSV file: a bucket per line, the comparison's figure beside it when there is one. */
export function seriesCsv(series: Series, metric: string): string {
  const lines = [['bucket', metric, ...(series.previous ? [`previous_${metric}`] : [])].join(',')];
  series.labels.forEach((label, i) => lines.push([label, series.values[i] ?? '', ...(series.previous ? [series.previous[i] ?? ''] : [])].join(',')));
  return `${lines.join('\n')}\n`;
}
