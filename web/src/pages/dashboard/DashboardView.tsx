import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { navigate, useLocation } from '../../router';
import { DashboardContext, type DashboardContextValue, type Filter, type QueryInput, type QueryResult, type SiteInfo } from './context';
import { FilterMenu } from './FilterMenu';
import { MainGraph } from './MainGraph';
import { Reports } from './panels/Reports';
import { COMPARISONS, comparisonOf, dateRangeOf, describeFilter, metricsBeside, PERIODS, readState, type ViewState, writeState } from './state';
import { headlinesFor, TopStats } from './TopStats';
import './dashboard.css';

const REALTIME_REFRESH_MS = 30_000;

/** "N current visitors", refreshed every 30 seconds. */
function CurrentVisitors({ run }: { run: (input: QueryInput) => Promise<QueryResult> }) {
  const [count, setCount] = useState<number | null>(null);
  useEffect(() => {
    const read = () =>
      run({ metrics: ['visitors'], date_range: 'realtime' })
        .then((result) => setCount(result.results[0]?.metrics[0] ?? 0))
        .catch(() => setCount(null));
    void read();
    const timer = setInterval(read, REALTIME_REFRESH_MS);
    return () => clearInterval(timer);
  }, [run]);
  return (
    <span className="current-visitors" title="Visitors in the last 30 minutes">
      <span className="pulse" aria-hidden="true" />
      {count === null ? '…' : count} current visitor{count === 1 ? '' : 's'}
    </span>
  );
}

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
function DateRangePicker({ state, update }: { state: ViewState; update(change: Partial<ViewState>): void }) {
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

function FilterChips({ filters, remove }: { filters: Filter[]; remove(index: number): void }) {
  if (filters.length === 0) return null;
  return (
    <section className="filter-chips" aria-label="Filters">
      {filters.map((filter, i) => {
        const text = describeFilter(filter);
        return (
          <span key={text} className="chip">
            {text}
            <button type="button" aria-label={`Remove filter: ${text}`} onClick={() => remove(i)}>
              ✕
            </button>
          </span>
        );
      })}
    </section>
  );
}

/**
 * The dashboard of one site: its view state is the URL; `run` asks the engine (the signed-in
 * route, or a shared link's); `header` adds what the surrounding page wants (settings link).
 */
export function DashboardView({
  site,
  run,
  funnel,
  readOnly,
  basePath,
  header,
}: {
  site: SiteInfo;
  run: (input: QueryInput, signal?: AbortSignal) => Promise<QueryResult>;
  funnel?: (name: string, dateRange: string | [string, string], filters: Filter[], signal?: AbortSignal) => Promise<unknown>;
  readOnly: boolean;
  basePath: string;
  header?: ReactNode;
}) {
  const { search } = useLocation();
  const searchText = search.toString();
  const state = useMemo(() => readState(new URLSearchParams(searchText)), [searchText]);
  // A shared link's key stays in the URL whatever the view.
  const keep = useMemo<Record<string, string>>(() => {
    const auth = new URLSearchParams(searchText).get('auth');
    const kept: Record<string, string> = {};
    if (auth) kept.auth = auth;
    return kept;
  }, [searchText]);
  // `update` reads the latest view through a ref, so it stays the same function while the view
  // changes: the panels' query (which uses it for addFilter) then changes only with the range
  // and filters, and choosing the graph's metric does not reload every panel.
  const latest = useRef(state);
  latest.current = state;
  const update = useCallback(
    (change: Partial<ViewState>, replace = false) => {
      const next = writeState({ ...latest.current, ...change });
      const extra = new URLSearchParams(keep).toString();
      navigate(`${basePath}${next}${extra ? `${next ? '&' : '?'}${extra}` : ''}`, { replace });
    },
    [basePath, keep],
  );
  // The realtime view refreshes itself: every 30 seconds each panel asks again.
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (state.period !== 'realtime') return;
    const timer = setInterval(() => setTick((n) => n + 1), REALTIME_REFRESH_MS);
    return () => clearInterval(timer);
  }, [state.period]);
  const dateRange = dateRangeOf(state);
  const comparison = comparisonOf(state);
  // The graph draws the chosen stat while the filters allow it (conversion rate needs a goal, views
  // per visit no page filter); otherwise the visitors, so a new filter never leaves it in error.
  const shown = metricsBeside(
    headlinesFor(state.filters, site).list.map((m) => m.metric),
    state.filters,
  );
  const metric = shown.includes(state.metric) ? state.metric : 'visitors';
  const filtersKey = JSON.stringify(state.filters);
  // biome-ignore lint/correctness/useExhaustiveDependencies: filtersKey stands for the filters
  const context = useMemo<DashboardContextValue>(
    () => ({
      site,
      dateRange,
      filters: state.filters,
      readOnly,
      query: (input, signal) =>
        run(
          {
            date_range: dateRange,
            ...input,
            filters: [...state.filters, ...(input.filters ?? [])],
            include: { ...(state.imported ? { imports: true } : {}), ...input.include },
          },
          signal,
        ),
      funnel: funnel ? (name, signal) => funnel(name, dateRange, state.filters, signal) : undefined,
      addFilter: (filter) => {
        const dimension = filter[1];
        update({ filters: [...state.filters.filter((f) => f[1] !== dimension), filter] });
      },
      refreshes: tick,
    }),
    [site, JSON.stringify(dateRange), filtersKey, state.imported, readOnly, run, funnel, update, tick],
  );
  // Keyboard shortcuts for the common ranges, as in Plausible; never while typing.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.metaKey || event.ctrlKey || event.altKey || target?.closest('input, select, textarea')) return;
      const period = PERIODS.find((p) => p.key === event.key.toLowerCase());
      if (period) update({ period: period.value, from: null, to: null, interval: null });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [update]);
  if (site.locked) {
    return (
      <div className="card locked-screen" role="alert">
        <h1>This dashboard is locked</h1>
        <p>
          The team's account is locked{site.locked_reason ? ` (${site.locked_reason})` : ''}. A team owner can settle it; until then the dashboard and the API
          are closed. Visitors are still being counted, and nothing collected meanwhile is lost.
        </p>
      </div>
    );
  }
  return (
    <DashboardContext.Provider value={context}>
      <div className="dashboard">
        <div className="dashboard-bar">
          <div className="site-title">
            <h1>{site.domain}</h1>
            <CurrentVisitors run={run} />
          </div>
          <div className="dashboard-controls">
            {header}
            <FilterMenu
              onAdd={(filter) => {
                const text = JSON.stringify(filter);
                if (!state.filters.some((f) => JSON.stringify(f) === text)) update({ filters: [...state.filters, filter] });
              }}
            />
            <DateRangePicker state={state} update={update} />
          </div>
        </div>
        <FilterChips filters={state.filters} remove={(index) => update({ filters: state.filters.filter((_, i) => i !== index) })} />
        <TopStats selected={metric} onSelect={(metric) => update({ metric }, true)} comparison={comparison} />
        <MainGraph
          metric={metric}
          comparison={comparison}
          interval={state.interval}
          onInterval={(interval) => update({ interval })}
          imported={state.imported}
          onImported={(imported) => update({ imported })}
        />
        <Reports />
        <p className="muted small tz-note">Times in {site.timezone}.</p>
      </div>
    </DashboardContext.Provider>
  );
}
