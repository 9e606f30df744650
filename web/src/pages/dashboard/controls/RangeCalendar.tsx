import { useState } from 'react';
import { addDays } from '../periods';

const WEEKDAYS = ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'];

/** The days of a month's grid, Monday first, with blanks (null) before the 1st. */
function monthGrid(month: string): (string | null)[] {
  const first = `${month}-01`;
  const weekday = (new Date(`${first}T00:00:00Z`).getUTCDay() + 6) % 7;
  const days: (string | null)[] = Array.from({ length: weekday }, () => null);
  for (let day = first; day.startsWith(month); day = addDays(day, 1)) days.push(day);
  return days;
}

const monthAfter = (month: string, step: number) => {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, m - 1 + step, 1)).toISOString().slice(0, 7);
};
const monthName = (month: string) => new Date(`${month}-01T00:00:00Z`).toLocaleDateString(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });
const dayName = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/**
 * A month's calendar to choose a range: the first click picks its first day, the second its last;
 * a day before the first starts the range again there, so a reversed range cannot be chosen. Days
 * after `latest` (the site's today) are not offered. It opens on the month of the range given
 * (the days the view shows), so the days around it can be picked at once.
 */
export function RangeCalendar({
  label,
  from,
  to,
  latest,
  near,
  apply,
  cancel,
}: {
  label: string;
  from: string | null;
  to: string | null;
  latest: string;
  /** A day whose month to open on when there is no range yet (the view's, for a comparison). */
  near?: string | null;
  apply(from: string, to: string): void;
  cancel(): void;
}) {
  const [range, setRange] = useState<{ from: string | null; to: string | null }>({ from, to });
  const [month, setMonth] = useState((to ?? near ?? latest).slice(0, 7));
  const pick = (day: string) =>
    setRange((current) => (current.from === null || current.to !== null || day < current.from ? { from: day, to: null } : { from: current.from, to: day }));
  const inRange = (day: string) => range.from !== null && day >= range.from && day <= (range.to ?? range.from);
  return (
    <div className="range-calendar" role="dialog" aria-label={label}>
      <div className="calendar-head">
        <button type="button" className="btn btn-small" aria-label="Previous month" onClick={() => setMonth(monthAfter(month, -1))}>
          ‹
        </button>
        <strong>{monthName(month)}</strong>
        <button
          type="button"
          className="btn btn-small"
          aria-label="Next month"
          disabled={month >= latest.slice(0, 7)}
          onClick={() => setMonth(monthAfter(month, 1))}
        >
          ›
        </button>
      </div>
      <div className="calendar-grid">
        {WEEKDAYS.map((weekday) => (
          <span key={weekday} className="calendar-weekday" aria-hidden="true">
            {weekday}
          </span>
        ))}
        {monthGrid(month).map((day, i) =>
          day === null ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: the blanks before the 1st have nothing else to tell them apart
            <span key={`blank-${i}`} />
          ) : (
            <button
              key={day}
              type="button"
              className={`calendar-day${inRange(day) ? ' in-range' : ''}${day === range.from || day === range.to ? ' edge' : ''}`}
              disabled={day > latest}
              aria-pressed={inRange(day)}
              aria-label={dayName(day)}
              data-day={day}
              onClick={() => pick(day)}
            >
              {Number(day.slice(8))}
            </button>
          ),
        )}
      </div>
      <p className="calendar-choice muted small" aria-live="polite">
        {range.from === null
          ? 'Click the first day.'
          : range.to === null
            ? `${dayName(range.from)} – click the last day (or apply this one).`
            : `${dayName(range.from)} – ${dayName(range.to)}`}
      </p>
      <div className="calendar-actions">
        <button type="button" className="btn btn-small" onClick={cancel}>
          Cancel
        </button>
        <button
          type="button"
          className="btn btn-small btn-primary"
          disabled={range.from === null}
          onClick={() => range.from && apply(range.from, range.to ?? range.from)}
        >
          Apply
        </button>
      </div>
    </div>
  );
}
