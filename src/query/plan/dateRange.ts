import { badRequest } from '../../errors.js';
import { calendarPresetDays } from '../../time/calendarPresets.js';
import { addDays, addMonths, dayNumber, endOfDay, fromLocal, isoWeekday, type LocalDate, parseIsoDate, startOfDay, toLocal } from '../../time/localTime.js';
import type { Interval } from '../catalog.js';
import type { ComparisonRequest, DateRange } from '../model.js';

/**
 * Date ranges as the reference bounds them (its §3.4), in the site's time zone: `Nd` ends
 * yesterday, `month`/`year` are the whole calendar period, `day` is today until now. Bounds are
 * inclusive instants at whole seconds.
 */

export const PRESETS = ['day', '24h', '7d', '28d', '91d', 'month', 'last_month', 'year', '12mo', 'all', 'realtime', '5m'] as const;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const wholeSecond = (ms: number) => Math.floor(ms / 1000) * 1000;

function days(first: LocalDate, last: LocalDate, tz: string): DateRange {
  return { first: startOfDay(first, tz), last: endOfDay(last, tz), unit: 'days' };
}

/**
 * Resolve a preset or `[start, end]` pair. `extraPresets` lets v1 use `30d` and `6mo`;
 * `siteStart` is the first day with data, needed only by `all`; `trim` ends `month` and
 * `year` today, so a chart has no empty future buckets.
 */
export function resolveDateRange(
  input: string | [string, string],
  context: { now: number; tz: string; siteStart: number | null; extraPresets?: boolean; trim?: boolean; where?: string },
): DateRange {
  const { tz } = context;
  const now = wholeSecond(context.now);
  const today: LocalDate = toLocal(now, tz);
  const where = context.where ?? '#/date_range';
  if (Array.isArray(input)) return explicitRange(input, tz, where);
  const nDays = /^(\d+)d$/.exec(input);
  const nMonths = /^(\d+)mo$/.exec(input);
  if (nDays && (input === '7d' || input === '28d' || input === '91d' || (context.extraPresets && input === '30d'))) {
    return days(addDays(today, -Number(nDays[1])), addDays(today, -1), tz);
  }
  if (nMonths && (input === '12mo' || (context.extraPresets && input === '6mo'))) {
    const { first, last } = calendarPresetDays(input, today);
    return days(first, last, tz);
  }
  switch (input) {
    case 'day':
      return { first: startOfDay(today, tz), last: now, unit: 'span' };
    case '24h':
      return { first: now - DAY, last: now, unit: 'span' };
    case 'month':
    case 'last_month':
    case 'year': {
      const { first, last } = calendarPresetDays(input, today);
      return days(first, context.trim && input !== 'last_month' ? today : last, tz);
    }
    case 'all': {
      const start = context.siteStart === null ? today : toLocal(Math.min(context.siteStart, now), tz);
      return { ...days(start, today, tz), fromFirstEvent: true };
    }
    case 'realtime':
      return { first: now - 30 * MINUTE, last: now, unit: 'span' };
    case '5m':
      return { first: now - 5 * MINUTE, last: now, unit: 'span' };
    default:
      throw badRequest(
        'invalid_date_range',
        `${where}: Invalid date range "${input}"; use one of ${PRESETS.join(', ')}${context.extraPresets ? ', 30d, 6mo' : ''}, or a pair of ISO dates such as ["2024-01-01", "2024-01-31"].`,
      );
  }
}

/** A pair of ISO dates (whole days, end inclusive) or of ISO date-times with an offset. */
function explicitRange(input: [string, string], tz: string, where: string): DateRange {
  const dates = input.map(parseIsoDate);
  if (dates[0] && dates[1]) {
    if (dayNumber(dates[0]) > dayNumber(dates[1]))
      throw badRequest('invalid_date_range', `${where}: the start date ${input[0]} is after the end date ${input[1]}.`);
    return days(dates[0], dates[1], tz);
  }
  const instants = input.map(parseInstant);
  if (instants[0] !== undefined && instants[1] !== undefined) {
    const [first, last] = instants[0] <= instants[1] ? [instants[0], instants[1]] : [instants[1], instants[0]];
    return { first: wholeSecond(first), last: wholeSecond(last), unit: 'span' };
  }
  const bad = input.find((_text, i) => !dates[i] && instants[i] === undefined) ?? input[0];
  throw badRequest('invalid_date_range', `${where}: "${bad}" is not a valid ISO date (YYYY-MM-DD) or date-time with an offset (2024-01-01T10:00:00+01:00).`);
}

function parseInstant(text: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * The instants the event store can hold: ClickHouse's DateTime counts seconds since 1970 in a
 * UInt32, up to 2106-02-07T06:28:15Z. A range reaching outside could never match an event, and
 * the engine refuses such values, so it is a 400 naming the bounds.
 */
export const STORABLE = { first: 0, last: 4_294_967_295_000 };

export function requireStorable(range: DateRange, where: string): DateRange {
  if (range.first < STORABLE.first || range.last > STORABLE.last) {
    throw badRequest('invalid_date_range', `${where}: dates must lie between 1970-01-01 and 2106-02-06 (the span the event store can hold).`);
  }
  return range;
}

/** The bucket width bare `time` takes: the finest that keeps a chart readable for the range. */
export function impliedInterval(range: DateRange): Interval {
  const length = range.last - range.first;
  if (length <= HOUR) return 'minute';
  if (length <= 48 * HOUR) return 'hour';
  if (length <= 40 * DAY) return 'day';
  if (length <= 52 * 7 * DAY) return 'week';
  return 'month';
}

/**
 * The earlier range a comparison reads. A range still in progress is compared with the same
 * elapsed part of the earlier one: both end the same time after their start.
 */
export function comparisonRange(source: DateRange, request: ComparisonRequest, context: { now: number; tz: string }): DateRange {
  const { tz } = context;
  if (request.mode === 'custom')
    return resolveDateRange(request.dateRange!, { now: context.now, tz, siteStart: null, where: '#/include/comparisons/date_range' });
  const inProgress = source.last > context.now && source.first <= context.now;
  const elapsed = wholeSecond(context.now) - source.first;
  let first: number;
  let last: number;
  if (source.unit === 'span') {
    const shift = request.mode === 'year_over_year' ? (ms: number) => shiftLocal(ms, tz, (d) => addMonths(d, -12)) : (ms: number) => ms - spanShift(source);
    first = shift(source.first);
    last = inProgress ? first + elapsed : shift(source.last);
  } else {
    const firstDay = toLocal(source.first, tz);
    const lastDay = toLocal(inProgress ? context.now : source.last, tz);
    const length = dayNumber(lastDay) - dayNumber(firstDay) + 1;
    let start = request.mode === 'year_over_year' ? addMonths(firstDay, -12) : addDays(firstDay, -length);
    if (request.matchDayOfWeek) start = matchWeekday(start, firstDay);
    first = startOfDay(start, tz);
    const fullEnd = endOfDay(addDays(start, dayNumber(toLocal(source.last, tz)) - dayNumber(firstDay)), tz);
    last = inProgress ? Math.min(first + elapsed, fullEnd) : endOfDay(addDays(start, length - 1), tz);
  }
  return { first, last, unit: source.unit };
}

/** Sub-day spans step back by whole days (so "today so far" meets "yesterday so far"), realtime by its own length. */
function spanShift(range: DateRange): number {
  const length = range.last - range.first;
  return length <= HOUR ? length + 1000 : Math.max(DAY, Math.ceil(length / DAY) * DAY);
}

function shiftLocal(ms: number, tz: string, shift: (date: LocalDate) => LocalDate): number {
  const local = toLocal(ms, tz);
  return fromLocal({ ...local, ...shift(local) }, tz, 'start');
}

/** Move forward to the source's weekday (or back a week when that would land on the source start). */
function matchWeekday(start: LocalDate, source: LocalDate): LocalDate {
  const delta = (isoWeekday(source) - isoWeekday(start) + 7) % 7;
  const moved = addDays(start, delta);
  return dayNumber(moved) === dayNumber(source) ? addDays(moved, -7) : moved;
}
