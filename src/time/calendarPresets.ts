import { addMonths, daysInMonth, type LocalDate } from './localTime.js';

/**
 * The local days of the date picker's calendar presets as seen on `today`: what a query over them
 * reads (src/query/plan/dateRange.ts) and what the roll-up job merges ahead for them
 * (src/stores/clickhouse/rollupWindows.ts) are the same days by construction. `month` and `year`
 * run to their calendar end; a caller trimming them to today cuts `last` itself.
 */
export type CalendarPreset = 'month' | 'last_month' | 'year' | '12mo' | '6mo';

export const firstOfMonth = (date: LocalDate): LocalDate => ({ ...date, day: 1 });
export const lastOfMonth = (date: LocalDate): LocalDate => ({ ...date, day: daysInMonth(date.year, date.month) });

export function calendarPresetDays(preset: CalendarPreset, today: LocalDate): { first: LocalDate; last: LocalDate } {
  const thisMonth = firstOfMonth(today);
  switch (preset) {
    case 'month':
      return { first: thisMonth, last: lastOfMonth(today) };
    case 'last_month': {
      const previous = addMonths(thisMonth, -1);
      return { first: previous, last: lastOfMonth(previous) };
    }
    case 'year':
      return { first: { year: today.year, month: 1, day: 1 }, last: { year: today.year, month: 12, day: 31 } };
    case '12mo':
    case '6mo':
      return { first: addMonths(thisMonth, preset === '12mo' ? -12 : -6), last: lastOfMonth(addMonths(thisMonth, -1)) };
  }
}
