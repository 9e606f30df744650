/**
 * Wall-clock arithmetic in a named time zone, on epoch milliseconds, with nothing but Intl:
 * date ranges and bucket labels are defined in the site's local days.
 */

import { LRUCache } from 'lru-cache';

export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

export interface LocalDateTime extends LocalDate {
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, f);
  }
  return f;
}

/**
 * The instants last converted, per zone and instant: planning one query asks for the same few (its
 * range's ends, the roll-ups' last instant) dozens of times, and Intl's parts were a large share of a
 * query's planning (docs/benchmarks.md). Frozen, as every caller shares them.
 */
const converted = new LRUCache<string, Readonly<LocalDateTime>>({ max: 4_096 });

export function toLocal(ms: number, tz: string): Readonly<LocalDateTime> {
  const key = `${tz} ${ms}`;
  const known = converted.get(key);
  if (known) return known;
  const parts: Record<string, number> = {};
  for (const part of formatter(tz).formatToParts(new Date(ms))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  const local = Object.freeze({ year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! });
  converted.set(key, local);
  return local;
}

const asUtc = (l: LocalDateTime) => Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, l.second);

/** Offset of local time from UTC at an instant, in milliseconds. */
export function offsetAt(ms: number, tz: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return asUtc(toLocal(whole, tz)) - whole;
}

const same = (a: LocalDateTime, b: LocalDateTime) =>
  a.year === b.year && a.month === b.month && a.day === b.day && a.hour === b.hour && a.minute === b.minute && a.second === b.second;

/**
 * The instant a local wall-clock time names. Ambiguous times (clocks going back) take the later
 * instant for a range start and the earlier for an end; a time skipped by clocks going forward
 * becomes the first instant after the gap (start) or the last before it (end).
 */
export function fromLocal(local: LocalDateTime, tz: string, edge: 'start' | 'end'): number {
  const guess = asUtc(local);
  const candidates = [guess - offsetAt(guess - 86_400_000, tz), guess - offsetAt(guess + 86_400_000, tz)];
  const valid = [...new Set(candidates)].filter((t) => same(toLocal(t, tz), local)).sort((a, b) => a - b);
  if (valid.length) return edge === 'start' ? valid[valid.length - 1]! : valid[0]!;
  // In a gap: find the transition between the two candidates by bisection.
  let [low, high] = [Math.min(...candidates), Math.max(...candidates)];
  const before = offsetAt(low, tz);
  while (high - low > 1000) {
    const mid = Math.floor((low + high) / 2000) * 1000;
    if (offsetAt(mid, tz) === before) low = mid;
    else high = mid;
  }
  return edge === 'start' ? high : high - 1000;
}

export function addDays(date: LocalDate, days: number): LocalDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** The same day-of-month `months` later, clamped to the month's length (31 Mar − 1 month = 28/29 Feb). */
export function addMonths(date: LocalDate, months: number): LocalDate {
  const first = new Date(Date.UTC(date.year, date.month - 1 + months, 1));
  const length = daysInMonth(first.getUTCFullYear(), first.getUTCMonth() + 1);
  return { year: first.getUTCFullYear(), month: first.getUTCMonth() + 1, day: Math.min(date.day, length) };
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function dayNumber(date: LocalDate): number {
  return Date.UTC(date.year, date.month - 1, date.day) / 86_400_000;
}

/** The earlier and the later of two days. */
export const earlierDay = (a: LocalDate, b: LocalDate): LocalDate => (dayNumber(a) <= dayNumber(b) ? a : b);
export const laterDay = (a: LocalDate, b: LocalDate): LocalDate => (dayNumber(a) >= dayNumber(b) ? a : b);

/** Monday = 1 … Sunday = 7. */
export function isoWeekday(date: LocalDate): number {
  return ((new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() + 6) % 7) + 1;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function formatDate(date: LocalDate): string {
  return `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`;
}

export function parseIsoDate(text: string): LocalDate | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return undefined;
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  if (date.month < 1 || date.month > 12 || date.day < 1 || date.day > daysInMonth(date.year, date.month)) return undefined;
  return date;
}

export const startOfDay = (date: LocalDate, tz: string) => fromLocal({ ...date, hour: 0, minute: 0, second: 0 }, tz, 'start');
export const endOfDay = (date: LocalDate, tz: string) => fromLocal({ ...date, hour: 23, minute: 59, second: 59 }, tz, 'end');

/** `2024-01-01T00:00:00+01:00`: an instant as the site reads it. */
export function isoWithOffset(ms: number, tz: string): string {
  const l = toLocal(ms, tz);
  const offsetMinutes = Math.round(offsetAt(ms, tz) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${formatDate(l)}T${pad(l.hour)}:${pad(l.minute)}:${pad(l.second)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
