import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatMetric } from '../../format';
import { type QueryResult, useDashboard } from './context';
import { TOP_METRICS } from './TopStats';

interface Series {
  labels: string[];
  values: (number | null)[];
  previous: (number | null)[] | null;
  presentIndex: number | null;
  interval: string;
}

/** Bucket labels (YYYY-MM-DD, YYYY-MM-DD HH:MM:SS) as chart times in seconds, read as UTC wall time. */
const toTime = (label: string) => Date.parse(`${label.replace(' ', 'T')}${label.length === 10 ? 'T00:00:00' : ''}Z`) / 1000;

function csv(series: Series, metric: string): string {
  const lines = [['bucket', metric, ...(series.previous ? [`previous_${metric}`] : [])].join(',')];
  series.labels.forEach((label, i) => lines.push([label, series.values[i] ?? '', ...(series.previous ? [series.previous[i] ?? ''] : [])].join(',')));
  return `${lines.join('\n')}\n`;
}

/** The chosen metric over time, with the comparison line dashed and the bucket still filling marked. */
export function MainGraph({ metric, compare }: { metric: string; compare: 'off' | 'previous_period' | 'year_over_year' }) {
  const { query, site } = useDashboard();
  const holder = useRef<HTMLDivElement>(null);
  const [series, setSeries] = useState<Series | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    setError(null);
    query(
      { metrics: [metric], dimensions: ['time'], include: { time_labels: true, ...(compare !== 'off' ? { comparisons: { mode: compare } } : {}) } },
      controller.signal,
    )
      .then((result: QueryResult) => {
        const labels = (result.meta.time_labels as string[] | undefined) ?? [];
        const byLabel = new Map(result.results.map((row) => [row.dimensions[0], row]));
        const empty = ['visit_duration', 'time_on_page', 'scroll_depth'].includes(metric) ? null : 0;
        setSeries({
          labels,
          values: labels.map((label) => byLabel.get(label)?.metrics[0] ?? empty),
          previous: compare === 'off' ? null : labels.map((label) => byLabel.get(label)?.comparison?.metrics[0] ?? empty),
          presentIndex: labels.findIndex((label) => label === result.results[result.meta.present_index ?? -1]?.dimensions[0]),
          interval: String(result.meta.interval ?? 'day'),
        });
      })
      .catch((failure: Error) => !controller.signal.aborted && setError(failure.message));
    return () => controller.abort();
  }, [query, metric, compare]);

  useEffect(() => {
    const element = holder.current;
    if (!element || !series || series.labels.length === 0) return;
    const styles = getComputedStyle(document.documentElement);
    const accent = styles.getPropertyValue('--accent').trim() || '#4f46e5';
    const muted = styles.getPropertyValue('--text-muted').trim() || '#888';
    const grid = styles.getPropertyValue('--border').trim() || '#eee';
    const times = series.labels.map(toTime);
    const inProgress = series.presentIndex !== null && series.presentIndex >= 0 ? series.presentIndex : null;
    const plot = new uPlot(
      {
        width: element.clientWidth,
        height: 260,
        legend: { show: true, live: true },
        cursor: { points: { size: 7 } },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] } },
        axes: [
          { stroke: muted, grid: { stroke: grid, width: 1 }, ticks: { show: false } },
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
          {
            label: TOP_METRICS.find((m) => m.metric === metric)?.label ?? metric,
            stroke: accent,
            width: 2.5,
            fill: `${accent}1a`,
            value: (_u, value) => formatMetric(metric, value),
            // The bucket still filling is drawn dashed: its figure will grow.
            dash: undefined,
          },
          ...(series.previous
            ? [{ label: 'Previous period', stroke: muted, width: 1.5, dash: [6, 5], value: (_u: uPlot, value: number | null) => formatMetric(metric, value) }]
            : []),
        ],
        hooks: inProgress !== null ? { draw: [(u: uPlot) => markInProgress(u, times[inProgress] as number, accent)] } : {},
      },
      [times, series.values, ...(series.previous ? [series.previous] : [])] as uPlot.AlignedData,
      element,
    );
    const resize = () => plot.setSize({ width: element.clientWidth, height: 260 });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      plot.destroy();
    };
  }, [series, metric]);

  const download = () => {
    if (!series) return;
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([csv(series, metric)], { type: 'text/csv' }));
    link.download = `${site.domain}-${metric}.csv`;
    link.click();
    URL.revokeObjectURL(link.href);
  };
  return (
    <section className="card graph" aria-label="Graph">
      <div className="graph-head">
        <span className="muted small">
          {series
            ? `${series.interval === 'day' ? 'Daily' : series.interval === 'hour' ? 'Hourly' : series.interval === 'minute' ? 'Per minute' : series.interval === 'week' ? 'Weekly' : 'Monthly'} · ${site.timezone}`
            : '\u00a0'}
        </span>
        <button type="button" className="btn btn-small" onClick={download} disabled={!series}>
          Download CSV
        </button>
      </div>
      {error && <p className="form-error">{error}</p>}
      <div ref={holder} className="graph-plot" data-points={series?.labels.length ?? 0} />
    </section>
  );
}

/** A shaded band from the bucket in progress to the end: that part of the line is not final. */
function markInProgress(u: uPlot, time: number, color: string): void {
  const left = u.valToPos(time, 'x', true);
  const ctx = u.ctx;
  ctx.save();
  ctx.fillStyle = `${color}14`;
  ctx.fillRect(left, u.bbox.top, u.bbox.left + u.bbox.width - left, u.bbox.height);
  ctx.restore();
}
