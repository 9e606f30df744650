/**
 * The date ranges the picker offers, as Plausible's dashboard does (its
 * assets/js/dashboard/dashboard-time-periods.ts), and the day arithmetic behind "yesterday",
 * "last 30 days" and moving a range back or forward with the arrow keys. Days are the site's local
 * calendar days, `YYYY-MM-DD`.
 */

export interface Period {
  value: string;
  label: string;
  /** The keyboard letter that picks it (shortcuts.ts). */
  key: string;
}

/**
 * In the order the menu lists them. `yesterday` and `30d` are not presets of the query API (spec
 * §3.4 has neither): the dashboard asks for their days (`presetDays`).
 */
export const PERIODS: Period[] = [
  { value: 'day', label: 'Today', key: 'd' },
  { value: 'yesterday', label: 'Yesterday', key: 'e' },
  { value: 'realtime', label: 'Realtime', key: 'r' },
  { value: '24h', label: 'Last 24 hours', key: '' },
  { value: '7d', label: 'Last 7 days', key: 'w' },
  { value: '28d', label: 'Last 28 days', key: 'f' },
  { value: '30d', label: 'Last 30 days', key: 't' },
  { value: '91d', label: 'Last 91 days', key: 'n' },
  { value: 'month', label: 'Month to date', key: 'm' },
  { value: 'last_month', label: 'Last month', key: 'p' },
  { value: 'year', label: 'Year to date', key: 'y' },
  { value: '12mo', label: 'Last 12 months', key: 'l' },
  { value: 'all', label: 'All time', key: 'a' },
];

const DAY_MS = 86_400_000;
const toMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
const fromMs = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The day so many days after (or, negative, before) another. */
export const addDays = (day: string, days: number) => fromMs(toMs(day) + days * DAY_MS);

/** Days from the first to the last, both counted. */
export const dayCount = (from: string, to: string) => Math.round((toMs(to) - toMs(from)) / DAY_MS) + 1;

/** The site's today, in its time zone. */
export function siteToday(timezone: string, now = Date.now()): string {
  try {
    // en-CA writes dates as YYYY-MM-DD.
    return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  } catch {
    return fromMs(now);
  }
}

const monthStart = (day: string) => `${day.slice(0, 7)}-01`;
const monthEnd = (day: string) => {
  const [year, month] = day.split('-').map(Number) as [number, number];
  return fromMs(Date.UTC(year, month, 0));
};
const addMonths = (day: string, months: number) => {
  const [year, month] = day.split('-').map(Number) as [number, number];
  return fromMs(Date.UTC(year, month - 1 + months, 1));
};

/**
 * The days a period covers, seen from the site's today; null for those that are not whole days
 * (today so far, the last 24 hours, realtime) or have no fixed start (all time).
 */
export function presetDays(period: string, today: string): [string, string] | null {
  const lastDays = /^(\d+)d$/.exec(period);
  if (lastDays) return [addDays(today, -Number(lastDays[1])), addDays(today, -1)];
  switch (period) {
    case 'yesterday':
      return [addDays(today, -1), addDays(today, -1)];
    case 'month':
      return [monthStart(today), today];
    case 'last_month':
      return [addMonths(today, -1), monthEnd(addMonths(today, -1))];
    case 'year':
      return [`${today.slice(0, 4)}-01-01`, today];
    case '12mo':
      return [addMonths(today, -12), monthEnd(addMonths(today, -1))];
    default:
      return null;
  }
}

/** The query API's date_range of a period the engine does not know by name (`yesterday`, `30d`), else the period itself. */
export function periodRange(period: string, today: string): string | [string, string] {
  return period === 'yesterday' || period === '30d' ? (presetDays(period, today) ?? period) : period;
}

/**
 * The range the arrow keys move to: the same number of days before or after (whole months by whole
 * months), never past today; null when the view cannot move (realtime, all time) or already ends today.
 */
export function shiftedRange(days: [string, string], direction: -1 | 1, today: string): [string, string] | null {
  const [from, to] = days;
  if (direction === 1 && to >= today) return null;
  const wholeMonths = from === monthStart(from) && (to === monthEnd(to) || to === today);
  let next: [string, string];
  if (wholeMonths) {
    const months = (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 + Number(to.slice(5, 7)) - Number(from.slice(5, 7)) + 1;
    const start = addMonths(from, direction * months);
    next = [start, monthEnd(addMonths(start, months - 1))];
  } else {
    const length = dayCount(from, to);
    next = [addDays(from, direction * length), addDays(to, direction * length)];
  }
  return [next[0], next[1] > today ? today : next[1]];
}
