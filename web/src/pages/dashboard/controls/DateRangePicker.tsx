import { useState } from 'react';
import { COMPARISONS, PERIODS, type ViewState } from '../state';

/** Two dates and Apply: a custom range for the view or for its comparison. */
function RangeForm({ label, from, to, apply }: { label: string; from: string | null; to: string | null; apply(from: string, to: string): void }) {
  const [range, setRange] = useState({ from: from ?? '', to: to ?? '' });
  return (
    <form
      className="range-form"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        if (!range.from || !range.to) return;
        // Dates given the wrong way round are taken the right way round.
        const [first, last] = [range.from, range.to].sort();
        apply(first as string, last as string);
      }}
    >
      <label>
        From <input type="date" required value={range.from} onChange={(event) => setRange({ ...range, from: event.target.value })} />
      </label>
      <label>
        To <input type="date" required value={range.to} onChange={(event) => setRange({ ...range, to: event.target.value })} />
      </label>
      <button type="submit" className="btn btn-small">
        Apply
      </button>
    </form>
  );
}

/** Every preset of the query API (with its shortcut key), a custom range, and the comparison. */
export function DateRangePicker({ state, update }: { state: ViewState; update(change: Partial<ViewState>): void }) {
  const [customRange, setCustomRange] = useState(false);
  const [customCompare, setCustomCompare] = useState(false);
  return (
    <div className="range-picker">
      <label>
        <span className="visually-hidden">Date range</span>
        <select
          value={customRange ? 'custom' : state.period}
          onChange={(event) => {
            const period = event.target.value;
            setCustomRange(period === 'custom');
            if (period !== 'custom') update({ period, from: null, to: null, interval: null });
          }}
        >
          {PERIODS.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
              {p.key ? ` (${p.key.toUpperCase()})` : ''}
            </option>
          ))}
          <option value="custom">Custom range{state.period === 'custom' && state.from && state.to ? `: ${state.from} – ${state.to}` : '…'}</option>
        </select>
      </label>
      {customRange && (
        <RangeForm
          label="Custom range"
          from={state.from}
          to={state.to}
          apply={(from, to) => {
            setCustomRange(false);
            update({ period: 'custom', from, to, interval: null });
          }}
        />
      )}
      <label>
        <span className="visually-hidden">Compare</span>
        <select
          value={customCompare ? 'custom' : state.compare}
          onChange={(event) => {
            const chosen = COMPARISONS.find((c) => c.value === event.target.value)?.value ?? 'off';
            setCustomCompare(chosen === 'custom');
            if (chosen !== 'custom') update({ compare: chosen, compareFrom: null, compareTo: null });
          }}
        >
          {COMPARISONS.map((c) => (
            <option key={c.value} value={c.value}>
              {c.value === 'custom' && state.compare === 'custom' ? `Compare with ${state.compareFrom} – ${state.compareTo}` : c.label}
            </option>
          ))}
        </select>
      </label>
      {customCompare && (
        <RangeForm
          label="Comparison range"
          from={state.compareFrom}
          to={state.compareTo}
          apply={(compareFrom, compareTo) => {
            setCustomCompare(false);
            update({ compare: 'custom', compareFrom, compareTo });
          }}
        />
      )}
    </div>
  );
}
