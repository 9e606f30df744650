import type { ReportKind } from '../contracts/emailReports.js';
import { addDays, addMonths, formatDate, fromLocal, isoWeekday, type LocalDate, toLocal } from '../time/localTime.js';

/**
 * The periods the email reports cover, in the site's time zone: a weekly report on Monday for
 * the Monday–Sunday before, a monthly one on the 1st for the month before (docs/settings.md,
 * Email reports). A report falls due at REPORT_HOUR on that day, local time, so it is in the inbox at the
 * start of the working day and the night's last events are in.
 */
export const REPORT_HOUR = 6;

export interface ReportPeriod {
  kind: ReportKind;
  /** First and last day, YYYY-MM-DD in the site's time zone. */
  from: string;
  to: string;
  /** The period before, which the changes are measured against. */
  previous: { from: string; to: string };
  /** When the report fell due (epoch ms): REPORT_HOUR local on the day after `to`. */
  dueAt: number;
}

/** The period whose report falls due on `day` or, for a day inside a period, the last one that ended before it. */
export function periodEndingBefore(kind: ReportKind, day: LocalDate, tz: string): ReportPeriod {
  const first = kind === 'weekly' ? addDays(day, 1 - isoWeekday(day)) : { ...day, day: 1 };
  const start = kind === 'weekly' ? addDays(first, -7) : addMonths(first, -1);
  const previousStart = kind === 'weekly' ? addDays(start, -7) : addMonths(start, -1);
  return {
    kind,
    from: formatDate(start),
    to: formatDate(addDays(first, -1)),
    previous: { from: formatDate(previousStart), to: formatDate(addDays(start, -1)) },
    dueAt: fromLocal({ ...first, hour: REPORT_HOUR, minute: 0, second: 0 }, tz, 'start'),
  };
}

/** The latest period whose report has fallen due by `now`. */
export function latestDuePeriod(kind: ReportKind, now: number, tz: string): ReportPeriod {
  const today: LocalDate = toLocal(now, tz);
  const period = periodEndingBefore(kind, today, tz);
  return period.dueAt <= now ? period : periodEndingBefore(kind, addDays(today, -1), tz);
}
