import { type RefObject, useEffect } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatMetric } from '../../../format';
import type { Series } from './series';

/** Bucket labels (YYYY-MM-DD, YYYY-MM-DD HH:MM:SS) as chart times in seconds, read as UTC wall time. */
const toTime = (label: string) => Date.parse(`${label.replace(' ', 'T')}${label.length === 10 ? 'T00:00:00' : ''}Z`) / 1000;

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

/** The series as the line the eye follows, the comparison's dashed beside it: complete buckets, the one filling, and the rest. */
function lines(series: Series) {
  const present = series.presentIndex !== null && series.presentIndex >= 0 ? series.presentIndex : null;
  // Complete buckets are a solid line; the one still filling joins it dashed; later ones (the
  // rest of today, say) are not drawn at all.
  const complete = present === null ? series.values : series.values.map((value, i) => (i < present ? value : null));
  const filling = present === null ? null : series.values.map((value, i) => (i === present || i === present - 1 ? value : null));
  return { complete, filling };
}

/** Draws the series with uPlot into `holder`, redrawn when the series, metric or legend changes and resized with the window. */
export function usePlot(holder: RefObject<HTMLDivElement | null>, series: Series | null, metric: string, label: string) {
  useEffect(() => {
    const element = holder.current;
    if (!element || !series || series.labels.length === 0) return;
    const styles = getComputedStyle(document.documentElement);
    const accent = styles.getPropertyValue('--accent').trim() || '#4f46e5';
    const muted = styles.getPropertyValue('--text-muted').trim() || '#888';
    const grid = styles.getPropertyValue('--border').trim() || '#eee';
    const times = series.labels.map(toTime);
    const { complete, filling } = lines(series);
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
  }, [holder, series, metric, label]);
}
