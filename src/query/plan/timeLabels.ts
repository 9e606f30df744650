import { addDays, formatDate, isoWeekday, type LocalDate, toLocal } from '../../time/localTime.js';
import type { Interval } from '../catalog.js';
import type { DateRange } from '../model.js';

/**
 * Every bucket label of a range, in order, as the SQL bucket expressions render them: day
 * `YYYY-MM-DD`, week the range's first day then each Monday, month `YYYY-MM-01`, hour
 * `YYYY-MM-DD HH:00:00`, minute `YYYY-MM-DD HH:MM:00`.
 */
export function timeLabels(range: DateRange, interval: Interval, tz: string): string[] {
  if (interval === 'hour' || interval === 'minute') {
    // Quarter-hour steps catch every local hour even in zones offset by 30 or 45 minutes; a label
    // seen before (an hour repeated when clocks go back) is not listed twice.
    const seen = new Set<string>();
    const step = interval === 'hour' ? 15 * 60_000 : 60_000;
    for (let t = Math.floor(range.first / step) * step; t <= range.last; t += step) seen.add(bucketLabel(t, interval, tz));
    return [...seen];
  }
  const first: LocalDate = toLocal(range.first, tz);
  const last = formatDate(toLocal(range.last, tz));
  const labels: string[] = [];
  for (let day = first; formatDate(day) <= last; day = addDays(day, 1)) {
    const label =
      interval === 'day'
        ? formatDate(day)
        : interval === 'month'
          ? formatDate({ ...day, day: 1 })
          : isoWeekday(day) === 1 || labels.length === 0
            ? formatDate(day)
            : null;
    if (label !== null && labels[labels.length - 1] !== label) labels.push(label);
  }
  return labels;
}

const BUCKET_MS: Record<Interval, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000, month: 28 * 86_400_000 };
const INTERVALS: Interval[] = ['minute', 'hour', 'day', 'week', 'month'];

/** The most buckets a time dimension may ask for; beyond it a chart is unreadable and the labels costly. */
export const MAX_TIME_BUCKETS = 10_000;

/** How many buckets of this width a range spans at most (a month counted as 28 days, so never fewer than it has). */
export function bucketCount(range: DateRange, interval: Interval): number {
  return Math.floor((range.last - range.first) / BUCKET_MS[interval]) + 2;
}

/** The finest interval whose buckets over the range stay within MAX_TIME_BUCKETS. */
export function finestFittingInterval(range: DateRange): Interval {
  return INTERVALS.find((interval) => bucketCount(range, interval) <= MAX_TIME_BUCKETS) ?? 'month';
}

/** The label of the bucket an instant falls in (for minute and hour buckets). */
export function bucketLabel(ms: number, interval: 'hour' | 'minute', tz: string): string {
  const l = toLocal(ms, tz);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${formatDate(l)} ${pad(l.hour)}:${interval === 'hour' ? '00' : pad(l.minute)}:00`;
}

/** Label of the bucket holding `now`, if the range has one: that bucket is still filling. */
export function currentLabel(range: DateRange, interval: Interval, tz: string, now: number): string | null {
  if (now < range.first || now > range.last) return null;
  if (interval === 'hour' || interval === 'minute') return bucketLabel(now, interval, tz);
  const labels = timeLabels({ ...range, last: now }, interval, tz);
  return labels[labels.length - 1] ?? null;
}
