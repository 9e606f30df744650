import { bucketDays } from './annotations';

const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000;

/**
 * The days of the range in each bucket the range cuts short, else null: a week or month that the
 * range starts or ends inside holds fewer days than its neighbours, so its figure does not compare
 * with theirs. The range is the answer's `query.date_range`, written in the site's time zone, so
 * its first ten characters are its local days. Days, hours and minutes are never cut by a range
 * of whole days.
 */
export function partialDays(labels: readonly string[], interval: string, range: readonly [string, string]): (number | null)[] {
  if (interval !== 'week' && interval !== 'month') return labels.map(() => null);
  const first = dayNumber(range[0].slice(0, 10));
  const last = dayNumber(range[1].slice(0, 10));
  return labels.map((label) => {
    const [start, end] = bucketDays(label, interval).map(dayNumber) as [number, number];
    // A week's bucket is always seven days long, even the first one, labelled by the range's first day.
    const whole = interval === 'week' ? 7 : end - start + 1;
    const inside = Math.min(end, last) - Math.max(start, first) + 1;
    return inside < whole ? inside : null;
  });
}

/** "Partial week: 1 day", "Partial month: 12 days". */
export function partialText(days: number, interval: string): string {
  return `Partial ${interval}: ${days} day${days === 1 ? '' : 's'}`;
}

/**
 * How the graph strokes a series: complete buckets solid; the bucket still filling and a partial
 * first or last bucket dashed (a line joins them dashed to their neighbour, bars are dashed
 * alone); buckets after the one filling (the rest of today, say) not at all. Only the ends can be
 * dashed, so a head and a tail series say all of it.
 */
export function strokes(values: readonly (number | null)[], present: number | null, partial: readonly (number | null)[], joined: boolean) {
  const end = present ?? values.length - 1;
  const tailDashed = present !== null || (end >= 0 && partial[end] !== null);
  const headDashed = end > 0 && partial[0] !== null;
  const reach = joined ? 1 : 0;
  const only = (keep: (i: number) => boolean) => values.map((value, i) => (keep(i) ? value : null));
  return {
    solid: only((i) => i >= (headDashed ? 1 : 0) && i <= (tailDashed ? end - 1 : end)),
    head: headDashed ? only((i) => i <= reach) : null,
    tail: tailDashed ? only((i) => i <= end && i >= end - reach) : null,
    /** The buckets drawn dashed. */
    dashed: [...(headDashed ? [0] : []), ...(tailDashed ? [end] : [])],
  };
}

/**
 * The time axis's ticks on the buckets' own starts, every so many buckets so that they are as far
 * apart as uPlot's chosen step: a weekly graph's ticks are its weeks' first days, not the days a
 * fixed step from the range's start reaches.
 */
export function bucketTicks(times: readonly number[], bucketSeconds: number, step: number): number[] {
  const every = Math.max(1, Math.round(step / bucketSeconds));
  return times.filter((_time, i) => i % every === 0);
}

/** Ticks (seconds, UTC wall time) named by their day, "10/16", with the year under the first and wherever it changes. */
export function dayTickLabels(ticks: readonly number[]): string[] {
  const year = (tick: number) => new Date(tick * 1000).getUTCFullYear();
  return ticks.map((tick, i) => {
    const day = new Date(tick * 1000);
    const text = `${day.getUTCMonth() + 1}/${day.getUTCDate()}`;
    const previous = ticks[i - 1];
    return previous === undefined || year(previous) !== year(tick) ? `${text}\n${year(tick)}` : text;
  });
}
