import type { Annotation } from '@contracts/annotations';
import { addDays } from '../periods';

/**
 * The first and last day a bucket covers (its label starts it; days for minutes and hours are their
 * own day). Weeks end on a Sunday: the first one starts on the range's first day, whatever weekday.
 */
export function bucketDays(label: string, interval: string): [string, string] {
  const day = label.slice(0, 10);
  if (interval === 'week') return [day, addDays(day, (7 - new Date(`${day}T00:00:00Z`).getUTCDay()) % 7)];
  if (interval === 'month') {
    const [year, month] = day.split('-').map(Number) as [number, number];
    return [day, new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10)];
  }
  return [day, day];
}

/** The notes that touch a bucket's days. */
export function annotationsIn(annotations: readonly Annotation[], label: string, interval: string): Annotation[] {
  const [first, last] = bucketDays(label, interval);
  return annotations.filter((a) => a.date <= last && (a.end_date ?? a.date) >= first);
}

/** A note's days in words: "3 Mar 2026", or "3 – 5 Mar 2026" for a span. */
export function annotationDays(annotation: Annotation): string {
  const day = (iso: string) => new Date(`${iso}T00:00:00Z`).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  return annotation.end_date ? `${day(annotation.date)} – ${day(annotation.end_date)}` : day(annotation.date);
}
