import type { Annotation } from '@contracts/annotations';
import { isMetricName, METRIC_DESCRIPTIONS } from '@contracts/metrics';
import { type RefObject, useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatMetric } from '../../../format';
import { bucketDays } from './annotations';
import { bucketTicks, dayTickLabels, strokes } from './buckets';
import type { Series } from './series';
import { type TooltipContent, tooltipContent } from './tooltip';

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

/** Whole steps for counts, so an empty graph's axis reads 0 and 1, not 0.2, 0.4 …. */
const WHOLE_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 2e6, 5e6, 1e7, 2e7, 5e7, 1e8, 1e9];
const counts = (metric: string) => !isMetricName(metric) || METRIC_DESCRIPTIONS[metric].unit === 'count';

/** The widths of the buckets whose ticks sit on the buckets themselves (a month counted as 30 days, as uPlot counts its steps). */
const BUCKET_SECONDS: Record<string, number> = { week: 7 * DAY, month: 30 * DAY };

/** Fills the tooltip element with a bucket's content; text only, so a note can hold no markup. */
function renderTooltip(element: HTMLElement, content: TooltipContent) {
  const line = (className: string, ...parts: string[]) => {
    const row = document.createElement('div');
    row.className = className;
    for (const part of parts) row.append(Object.assign(document.createElement('span'), { textContent: part }));
    return row;
  };
  element.replaceChildren(
    line('tooltip-title', content.title),
    ...(content.status ? [line('tooltip-status', content.status)] : []),
    ...content.rows.map((row) => line(`tooltip-row ${row.key}`, row.label, row.value)),
    ...(content.change ? [line('tooltip-change', 'Change', content.change)] : []),
    ...content.notes.map((note) => line('tooltip-note', note)),
  );
}

/** Marks each note on the plot: a line on its day, a band over a span, at the top a small flag. */
function drawAnnotations(u: uPlot, series: Series, annotations: readonly Annotation[], colour: string) {
  if (annotations.length === 0 || series.labels.length === 0) return;
  const first = bucketDays(series.labels[0] ?? '', series.interval)[0];
  const last = bucketDays(series.labels[series.labels.length - 1] ?? '', series.interval)[1];
  const { ctx } = u;
  const { top, height } = u.bbox;
  ctx.save();
  for (const note of annotations) {
    const end = note.end_date ?? note.date;
    if (end < first || note.date > last) continue;
    // Days are YYYY-MM-DD text: sorting them orders them in time.
    const x0 = u.valToPos(toTime([note.date, first].sort()[1] as string), 'x', true);
    const x1 = u.valToPos(toTime([end, last].sort()[0] as string), 'x', true);
    ctx.fillStyle = `${colour}22`;
    if (x1 > x0) ctx.fillRect(x0, top, x1 - x0, height);
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1.5 * devicePixelRatio;
    ctx.setLineDash([3 * devicePixelRatio, 3 * devicePixelRatio]);
    ctx.beginPath();
    ctx.moveTo(x0, top);
    ctx.lineTo(x0, top + height);
    ctx.stroke();
    ctx.fillStyle = colour;
    ctx.beginPath();
    ctx.arc(x0, top + 4 * devicePixelRatio, 4 * devicePixelRatio, 0, 2 * Math.PI);
    ctx.fill();
  }
  ctx.restore();
}

/**
 * Shades the column of a bar still filling, its edges dashed: a minute that has only begun has
 * next to no bar, and must not read as a final nothing.
 */
function drawFilling(u: uPlot, time: number, halfBucket: number, colour: string) {
  const { ctx } = u;
  const { top, height } = u.bbox;
  const x0 = u.valToPos(time - halfBucket * 0.8, 'x', true);
  const x1 = u.valToPos(time + halfBucket * 0.8, 'x', true);
  ctx.save();
  ctx.fillStyle = `${colour}14`;
  ctx.fillRect(x0, top, x1 - x0, height);
  ctx.strokeStyle = `${colour}99`;
  ctx.lineWidth = devicePixelRatio;
  ctx.setLineDash([4 * devicePixelRatio, 4 * devicePixelRatio]);
  ctx.strokeRect(x0, top, x1 - x0, height);
  ctx.restore();
}

/**
 * Draws the series with uPlot into `holder`, as a line or as bars, with a tooltip at the pointer
 * (the bucket's date, whether it is partial or still filling, its figure, the compared bucket's
 * date and figure, the change, its notes) and the notes marked; redrawn when any of them changes
 * and resized with the window.
 */
export function usePlot(
  holder: RefObject<HTMLDivElement | null>,
  series: Series | null,
  metric: string,
  label: string,
  annotations: readonly Annotation[],
  bars: boolean,
) {
  // Notes arrive on their own and change on their own: the drawn plot reads the latest through
  // this ref and is redrawn, not rebuilt, when they change.
  const notes = useRef(annotations);
  const drawn = useRef<uPlot | null>(null);
  useEffect(() => {
    notes.current = annotations;
    drawn.current?.redraw(false);
  }, [annotations]);
  useEffect(() => {
    const element = holder.current;
    if (!element || !series || series.labels.length === 0) return;
    const styles = getComputedStyle(document.documentElement);
    const accent = styles.getPropertyValue('--accent').trim() || '#4f46e5';
    const muted = styles.getPropertyValue('--text-muted').trim() || '#888';
    const grid = styles.getPropertyValue('--border').trim() || '#eee';
    const noteColour = styles.getPropertyValue('--warn').trim() || '#d97706';
    const times = series.labels.map(toTime);
    const { solid, head, tail, dashed } = strokes(series.values, series.presentIndex, series.partial, !bars);
    // Told on the holder for browser tests, as the axis figures are.
    element.dataset.dashed = dashed.join(' ');
    const bucketSeconds = BUCKET_SECONDS[series.interval];
    const halfBucket = times.length > 1 ? ((times[1] ?? 0) - (times[0] ?? 0)) / 2 : 30;
    const styled = (dash?: number[]): uPlot.Series =>
      bars
        ? {
            label,
            stroke: accent,
            fill: dash ? `${accent}40` : accent,
            width: dash ? 1.5 : 0,
            ...(dash ? { dash } : {}),
            paths: uPlot.paths.bars?.({ size: [0.7, 40] }),
            points: { show: false },
          }
        : { label, stroke: accent, width: 2.5, ...(dash ? { dash } : { fill: `${accent}1a` }) };
    const tooltip = document.createElement('div');
    tooltip.className = 'graph-tooltip';
    tooltip.setAttribute('role', 'tooltip');
    tooltip.hidden = true;
    const follow = (u: uPlot) => {
      const { idx, left, top } = u.cursor;
      if (idx === null || idx === undefined || left === undefined || left < 0 || top === undefined) {
        tooltip.hidden = true;
        return;
      }
      renderTooltip(tooltip, tooltipContent(series, idx, metric, label, notes.current));
      tooltip.hidden = false;
      // Beside the pointer, flipped to its left in the right half so it stays inside the graph.
      // Kept inside the graph's width, so a phone's page never scrolls sideways for it.
      const x = u.over.offsetLeft + left;
      const width = tooltip.offsetWidth;
      const flip = left > u.over.clientWidth / 2;
      const room = (u.over.parentElement?.clientWidth ?? x + width) - width;
      tooltip.style.left = `${Math.max(0, Math.min(room, flip ? x - width - 14 : x + 14))}px`;
      tooltip.style.top = `${Math.max(0, u.over.offsetTop + top - tooltip.offsetHeight / 2)}px`;
    };
    const plot = new uPlot(
      {
        width: element.clientWidth,
        height: 260,
        // Bucket labels are the site's wall time already: shown as they are, whatever the browser's zone.
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        legend: { show: false },
        cursor: { points: { size: 7 }, y: false },
        scales: {
          // Bars are whole: the first and last stand half a bucket inside the edges.
          x: { time: true, ...(bars ? { range: (_u, min, max) => [min - halfBucket, max + halfBucket] as [number, number] } : {}) },
          y: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] },
        },
        axes: [
          {
            stroke: muted,
            grid: { stroke: grid, width: 1 },
            ticks: { show: false },
            incrs: TICK_STEPS[series.interval],
            ...(bucketSeconds
              ? {
                  splits: (_u: uPlot, _axis: number, _min: number, _max: number, step: number) => {
                    const ticks = bucketTicks(times, bucketSeconds, step);
                    element.dataset.xTicks = ticks.map((tick) => series.labels[times.indexOf(tick)]).join(' ');
                    return ticks;
                  },
                }
              : {}),
            // uPlot names a step of four weeks or more by its month, which a Monday tick is not.
            ...(series.interval === 'week' ? { values: (_u: uPlot, ticks: number[]) => dayTickLabels(ticks) } : {}),
          },
          {
            stroke: muted,
            grid: { stroke: grid, width: 1 },
            ticks: { show: false },
            size: 56,
            ...(counts(metric) ? { incrs: WHOLE_STEPS } : {}),
            values: (_u, ticks) => {
              const figures = ticks.map((tick) => formatMetric(metric, tick));
              // The axis is drawn on the canvas; its figures are also told on the holder (browser tests read them).
              element.dataset.yTicks = figures.join(' ');
              return figures;
            },
          },
        ],
        series: [
          {},
          styled(),
          ...(head ? [styled([5, 5])] : []),
          ...(tail ? [styled([5, 5])] : []),
          ...(series.previous ? [{ label: series.comparisonLabel, stroke: muted, width: 1.5, dash: [6, 5] }] : []),
        ],
        hooks: {
          setCursor: [follow],
          draw: [
            (u) => drawAnnotations(u, series, notes.current, noteColour),
            ...(bars && series.presentIndex !== null ? [(u: uPlot) => drawFilling(u, times[series.presentIndex ?? 0] ?? 0, halfBucket, accent)] : []),
          ],
        },
      },
      [times, solid, ...(head ? [head] : []), ...(tail ? [tail] : []), ...(series.previous ? [series.previous] : [])] as uPlot.AlignedData,
      element,
    );
    (plot.over.parentElement ?? plot.root).append(tooltip);
    drawn.current = plot;
    const hide = () => {
      tooltip.hidden = true;
    };
    plot.over.addEventListener('mouseleave', hide);
    const resize = () => plot.setSize({ width: element.clientWidth, height: 260 });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      drawn.current = null;
      plot.destroy();
    };
  }, [holder, series, metric, label, bars]);
}
