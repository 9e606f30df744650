import type { Coverage } from '../../stores/clickhouse/rollupStore.js';
import { addDays, endOfDay, formatDate, toLocal } from '../../time/localTime.js';
import type { DateRange } from '../model.js';

/**
 * The roll-ups' coverage as it serves one range. A day's roll-up rows hold the whole day, so a
 * range ending partway through a rolled-up day cannot take that day from them: the comparison of
 * a range still in progress does (src/query/plan/dateRange.ts comparisonRange: `month` so far is
 * compared with last month up to the same minute of the same day). That day is read raw, as the
 * days after the roll-ups are (stitched), and the roll-ups serve the days before it.
 */
export function servedCoverage(range: DateRange, coverage: Coverage): Coverage {
  const { timezone } = coverage;
  const lastDay = toLocal(range.last, timezone);
  if (range.last > coverage.until || range.last === endOfDay(lastDay, timezone)) return coverage;
  const through = formatDate(addDays(lastDay, -1));
  return {
    timezone,
    through,
    until: endOfDay(addDays(lastDay, -1), timezone),
    runsFrom: coverage.runsFrom,
    windows: coverage.windows.filter((window) => window.last <= through),
  };
}

/** Whether a range reaches past the roll-ups (is stitched): its later rows are read raw, in the same statement. */
export const stitched = (range: DateRange, coverage: Coverage) => range.last > coverage.until;
