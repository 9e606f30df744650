import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatMetric, METRIC_HEADINGS } from '../../format';
import { type QueryResult, useDashboard } from './context';
import { INTERVALS, type Interval, intervalsFor } from './state';
import { headlinesFor } from './TopStats';

interface Series {
  labels: string[];
  values: (number | null)[];
  previous: (number | null)[] | null;
  presentIndex: number | null;
  interval: string;
  /** The intervals the answered range can be drawn in. */
  intervals: Interval[];
  comparisonLabel: string;
  /** Whether the site has imported data for this view (the switch shows), and why it is left out if it is. */
  imports: { applies: boolean; warning: string | null };
}

/** Bucket labels (YYYY-MM-DD, YYYY-MM-DD HH:MM:SS) as chart times in seconds, read as UTC wall time. */
const toTime = (label: string) => Date.parse(`${label.replace(' ', 'T')}${label.length === 10 ? 'T00:00:00' : ''}Z`) / 1000;

function csv(series: Series, metric: string): string {
  const lines = [['bucket', metric, ...(series.previous ? [`previous_${metric}`] : [])].join(',')];
  series.labels.forEach((label, i) => lines.push([label, series.values[i] ?? '', ...(series.previous ? [series.previous[i] ?? ''] : [])].join(',')));
  return `${lines.join('\n')}\n`;
}

const DAY = 86_400;
/**
 * The time axis's tick steps (seconds) for each interval: never finer than a bucket, so a daily
 * graph has no "12pm" ticks. Steps of 30 days are months to uPlot.
 */
const TICK_STEPS: Record<string, number[]> = {
  minute: [60, 300, 600, 900, 1800, 3600, 7200],
  hour: [3600, 3 * 3600, 6 * 3600, 12 * 3600, DAY, 2 * DAY, 7 * DAY],
  day: [DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY, 90 * DAY, 365 * DAY],
  week: [7 * DAY, 14 * DAY, 30 * DAY, 90 * DAY, 365 * DAY],
  month: [30 * DAY, 90 * DAY, 180 * DAY, 365 * DAY],
};

const COMPARISON_LABELS: Record<string, string> = { previous_period: 'Previous period', year_over_year: 'A year before', custom: 'Compared range' };

/**
 * The chosen metric over time in the chosen interval, with the comparison line dashed and the
 * bucket still filling drawn dashed from the last complete one (its figure will still grow).
 */
export function MainGraph({
  metric,
  comparison,
  interval,
  onInterval,
  imported,
  onImported,
}: {
  metric: string;
  comparison: { mode: string; date_range?: [string, string] } | null;
  interval: Interval | null;
  onInterval(interval: Interval): void;
  imported: boolean;
  onImported(imported: boolean): void;
}) {
  const { query, site, dateRange, filters } = useDashboard();
  // The legend names the metric as the top stats do (a goal's visitors are its conversions).
  const label = headlinesFor(filters, site).list.find((m) => m.metric === metric)?.label ?? METRIC_HEADINGS[metric] ?? metric;
  const comparisonKey = JSON.stringify(comparison);
  const holder = useRef<HTMLDivElement>(null);
  const [series, setSeries] = useState<Series | null>(null);
  const [error, setError] = useState<string | null>(null);
  // An interval the range cannot take (one chosen for another range) falls back to the range's own.
  const rangeKey = JSON.stringify(dateRange);
  const [fits, setFits] = useState<{ rangeKey: string; intervals: Interval[] } | null>(null);
  const dimension = interval && fits?.rangeKey === rangeKey && fits.intervals.includes(interval) ? `time:${interval}` : 'time';
  // biome-ignore lint/correctness/useExhaustiveDependencies: comparisonKey stands for the comparison
  useEffect(() => {
    const controller = new AbortController();
    setError(null);
    query({ metrics: [metric], dimensions: [dimension], include: { time_labels: true, ...(comparison ? { comparisons: comparison } : {}) } }, controller.signal)
      .then((result: QueryResult) => {
        const [from, to] = result.query.date_range ?? [];
        const days = from && to ? (Date.parse(to) - Date.parse(from)) / 86_400_000 : 1;
        const intervals = dateRange === 'realtime' ? (['minute'] as Interval[]) : intervalsFor(days);
        setFits({ rangeKey, intervals });
        const labels = (result.meta.time_labels as string[] | undefined) ?? [];
        const byLabel = new Map(result.results.map((row) => [row.dimensions[0], row]));
        const empty = ['visit_duration', 'time_on_page', 'scroll_depth'].includes(metric) ? null : 0;
        setSeries({
          labels,
          values: labels.map((label) => byLabel.get(label)?.metrics[0] ?? empty),
          previous: comparison ? labels.map((label) => byLabel.get(label)?.comparison?.metrics[0] ?? empty) : null,
          presentIndex: labels.findIndex((label) => label === result.results[result.meta.present_index ?? -1]?.dimensions[0]),
          interval: String(result.meta.interval ?? 'day'),
          intervals,
          comparisonLabel: COMPARISON_LABELS[comparison?.mode ?? ''] ?? 'Comparison',
          // Only these two answers say the site has imported days in this range; the engine checks
          // the interval before it looks for imports, so "unsupported_interval" says nothing about them.
          imports: {
            applies: result.meta.imports_included === true || result.meta.imports_skip_reason === 'unsupported_query',
            warning:
              result.meta.imports_skip_reason === 'unsupported_query' && typeof result.meta.imports_warning === 'string' ? result.meta.imports_warning : null,
          },
        });
      })
      .catch((failure: Error) => !controller.signal.aborted && setError(failure.message));
    return () => controller.abort();
  }, [query, metric, comparisonKey, dimension]);

  useEffect(() => {
    const element = holder.current;
    if (!element || !series || series.labels.length === 0) return;
    const styles = getComputedStyle(document.documentElement);
    const accent = styles.getPropertyValue('--accent').trim() || '#4f46e5';
    const muted = styles.getPropertyValue('--text-muted').trim() || '#888';
    const grid = styles.getPropertyValue('--border').trim() || '#eee';
    const times = series.labels.map(toTime);
    const present = series.presentIndex !== null && series.presentIndex >= 0 ? series.presentIndex : null;
    // Complete buckets are a solid line; the one still filling joins it dashed; later ones (the
    // rest of today, say) are not drawn at all.
    const complete = present === null ? series.values : series.values.map((value, i) => (i < present ? value : null));
    const filling = present === null ? null : series.values.map((value, i) => (i === present || i === present - 1 ? value : null));
    // The legend reads the hovered bucket; with none hovered it stays blank rather than "—".
    const format = (_u: uPlot, value: number | null) => (value === null ? '' : formatMetric(metric, value));
    const plot = new uPlot(
      {
        width: element.clientWidth,
        height: 260,
        // Bucket labels are the site's wall time already: shown as they are, whatever the browser's zone.
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        legend: { show: true, live: true },
        cursor: { points: { size: 7 } },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] } },
        axes: [
          { stroke: muted, grid: { stroke: grid, width: 1 }, ticks: { show: false }, incrs: TICK_STEPS[series.interval] },
          {
            stroke: muted,
            grid: { stroke: grid, width: 1 },
            ticks: { show: false },
            size: 56,
            values: (_u, ticks) => ticks.map((tick) => formatMetric(metric, tick)),
          },
        ],
        series: [
          { value: (_u, value) => (value === null ? '' : (series.labels[times.indexOf(value)] ?? '')) },
          { label, stroke: accent, width: 2.5, fill: `${accent}1a`, value: format },
          ...(filling ? [{ label: 'In progress', stroke: accent, width: 2.5, dash: [5, 5], value: format }] : []),
          ...(series.previous ? [{ label: series.comparisonLabel, stroke: muted, width: 1.5, dash: [6, 5], value: format }] : []),
        ],
      },
      [times, complete, ...(filling ? [filling] : []), ...(series.previous ? [series.previous] : [])] as uPlot.AlignedData,
      element,
    );
    const resize = () => plot.setSize({ width: element.clientWidth, height: 260 });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      plot.destroy();
    };
  }, [series, metric, label]);

  const download = () => {
    if (!series) return;
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([csv(series, metric)], { type: 'text/csv' }));
    link.download = `${site.domain}-${metric}.csv`;
    link.click();
    // The download starts after this handler; the blob is released once it has.
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  };
  return (
    <section className="card graph" aria-label="Graph">
      <div className="graph-head">
        <span className="graph-interval muted small">
          {series && series.intervals.length > 1 ? (
            <label>
              <span className="visually-hidden">Interval</span>
              <select
                value={series.interval}
                onChange={(event) => {
                  const chosen = INTERVALS.find((i) => i.value === event.target.value);
                  if (chosen) onInterval(chosen.value);
                }}
              >
                {INTERVALS.filter((i) => series.intervals.includes(i.value)).map((i) => (
                  <option key={i.value} value={i.value}>
                    {i.label}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            <span>{INTERVALS.find((i) => i.value === series?.interval)?.label ?? '\u00a0'}</span>
          )}
          <span>{site.timezone}</span>
          {/* Once imports are off the engine is not asked about them: the switch stays to turn them back on. */}
          {(series?.imports.applies || !imported) && (
            <label className="imported-switch">
              <input type="checkbox" checked={imported} onChange={(event) => onImported(event.target.checked)} /> Imported data
            </label>
          )}
        </span>
        <button type="button" className="btn btn-small" onClick={download} disabled={!series}>
          Download CSV
        </button>
      </div>
      {error && (
        <p className="form-error small clamped" title={error}>
          {error}
        </p>
      )}
      <div
        ref={holder}
        className="graph-plot"
        data-points={series?.labels.length ?? 0}
        data-interval={series?.interval}
        data-in-progress={series && series.presentIndex !== null && series.presentIndex >= 0 ? series.presentIndex : undefined}
      />
    </section>
  );
}
