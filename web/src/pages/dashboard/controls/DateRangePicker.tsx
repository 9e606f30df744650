import { lazy, Suspense, useState } from 'react';
import './controls.css';
import { PERIODS } from '../periods';
import { viewDays } from '../shortcuts';
import { COMPARISONS, type ViewState } from '../state';

// Fetched when a custom range is first chosen, not with the dashboard's first load (test/web/bundleSize.test.ts).
const RangeCalendar = lazy(() => import('./RangeCalendar').then((module) => ({ default: module.RangeCalendar })));

const shortDay = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' });
const span = (from: string | null, to: string | null) => (from && to ? (from === to ? shortDay(from) : `${shortDay(from)} – ${shortDay(to)}`) : '');

/**
 * The range menu (every preset, with its shortcut letter, and a custom range chosen on a calendar)
 * and the comparison menu with its "match day of week" choice. The calendars open over the page,
 * so the toolbar keeps its one row.
 */
export function DateRangePicker({
  state,
  update,
  today,
  customOpen,
  setCustomOpen,
  comparing = true,
}: {
  state: ViewState;
  update(change: Partial<ViewState>): void;
  /** The site's today: no later day can be chosen. */
  today: string;
  /** Whether the custom range's calendar is open (the C shortcut opens it too). */
  customOpen: boolean;
  setCustomOpen(open: boolean): void;
  /** Whether the view compares (Explore does not): without, the comparison menu is left out. */
  comparing?: boolean;
}) {
  const [compareOpen, setCompareOpen] = useState(false);
  const custom = state.period === 'custom' && state.from && state.to;
  const matchable = state.compare === 'previous_period' || state.compare === 'year_over_year';
  // The calendar opens on the days shown (28 days ending yesterday open on yesterday's month).
  const [shownFrom, shownTo] = viewDays(state, today) ?? [null, null];
  return (
    <div className="range-picker">
      <div className="picker-anchor">
        <label>
          <span className="visually-hidden">Date range</span>
          <select
            value={customOpen ? 'custom' : state.period}
            onChange={(event) => {
              const period = event.target.value;
              setCustomOpen(period === 'custom');
              if (period !== 'custom') update({ period, from: null, to: null, interval: null });
            }}
          >
            {PERIODS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
                {p.key ? ` (${p.key.toUpperCase()})` : ''}
              </option>
            ))}
            <option value="custom">{custom ? span(state.from, state.to) : 'Custom range… (C)'}</option>
          </select>
        </label>
        {customOpen && (
          <Suspense fallback={null}>
            <RangeCalendar
              label="Custom range"
              from={shownFrom}
              to={shownTo}
              latest={today}
              cancel={() => setCustomOpen(false)}
              apply={(from, to) => {
                setCustomOpen(false);
                update({ period: 'custom', from, to, interval: null });
              }}
            />
          </Suspense>
        )}
      </div>
      {comparing && (
        <>
          <div className="picker-anchor">
            <label>
              <span className="visually-hidden">Compare</span>
              <select
                value={compareOpen ? 'custom' : state.compare}
                onChange={(event) => {
                  const chosen = COMPARISONS.find((c) => c.value === event.target.value)?.value ?? 'off';
                  setCompareOpen(chosen === 'custom');
                  if (chosen !== 'custom') update({ compare: chosen, compareFrom: null, compareTo: null });
                }}
              >
                {COMPARISONS.map((c) => (
                  <option key={c.value} value={c.value}>
                    {c.value === 'custom' && state.compare === 'custom' ? `Compare with ${span(state.compareFrom, state.compareTo)}` : c.label}
                  </option>
                ))}
              </select>
            </label>
            {compareOpen && (
              <Suspense fallback={null}>
                <RangeCalendar
                  label="Comparison range"
                  from={state.compareFrom}
                  to={state.compareTo}
                  latest={today}
                  near={state.from}
                  cancel={() => setCompareOpen(false)}
                  apply={(compareFrom, compareTo) => {
                    setCompareOpen(false);
                    update({ compare: 'custom', compareFrom, compareTo });
                  }}
                />
              </Suspense>
            )}
          </div>
          {/* Kept in place (hidden) without such a comparison, so choosing one never rearranges the toolbar. */}
          <label
            className="match-weekday small"
            title="Compare Mondays with Mondays: the compared range starts on the same day of the week"
            hidden={!matchable}
          >
            <input
              type="checkbox"
              checked={state.matchDayOfWeek}
              disabled={!matchable}
              onChange={(event) => update({ matchDayOfWeek: event.target.checked })}
            />{' '}
            Match day of week
          </label>
        </>
      )}
    </div>
  );
}
