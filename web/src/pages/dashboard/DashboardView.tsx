import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { navigate, useLocation } from '../../router';
import { DashboardContext, type DashboardContextValue, type Filter, type QueryInput, type QueryResult, type SiteInfo } from './context';
import { MainGraph } from './MainGraph';
import { Reports } from './panels/Reports';
import { dateRangeOf, dimensionLabel, OPERATOR_LABELS, PERIODS, readState, type ViewState, writeState } from './state';
import { TopStats } from './TopStats';
import './dashboard.css';

/** "N current visitors", refreshed every 30 seconds. */
function CurrentVisitors({ run }: { run: (input: QueryInput) => Promise<QueryResult> }) {
  const [count, setCount] = useState<number | null>(null);
  useEffect(() => {
    const read = () =>
      run({ metrics: ['visitors'], date_range: 'realtime' })
        .then((result) => setCount(result.results[0]?.metrics[0] ?? 0))
        .catch(() => setCount(null));
    void read();
    const timer = setInterval(read, 30_000);
    return () => clearInterval(timer);
  }, [run]);
  return (
    <span className="current-visitors" title="Visitors in the last 30 minutes">
      <span className="pulse" aria-hidden="true" />
      {count === null ? '…' : count} current visitor{count === 1 ? '' : 's'}
    </span>
  );
}

function DateRangePicker({ state, update }: { state: ViewState; update(change: Partial<ViewState>): void }) {
  const [custom, setCustom] = useState({ from: state.from ?? '', to: state.to ?? '' });
  return (
    <div className="range-picker">
      <label>
        <span className="visually-hidden">Date range</span>
        <select value={state.period} onChange={(event) => event.target.value !== 'custom' && update({ period: event.target.value, from: null, to: null })}>
          {PERIODS.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
              {p.key ? ` (${p.key.toUpperCase()})` : ''}
            </option>
          ))}
          <option value="custom">Custom range</option>
        </select>
      </label>
      <details className="custom-range">
        <summary>Custom</summary>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (custom.from && custom.to) update({ period: 'custom', from: custom.from, to: custom.to });
          }}
        >
          <label>
            From <input type="date" value={custom.from} onChange={(event) => setCustom({ ...custom, from: event.target.value })} />
          </label>
          <label>
            To <input type="date" value={custom.to} onChange={(event) => setCustom({ ...custom, to: event.target.value })} />
          </label>
          <button type="submit" className="btn btn-small">
            Apply
          </button>
        </form>
      </details>
      <label>
        <span className="visually-hidden">Compare</span>
        <select value={state.compare} onChange={(event) => update({ compare: event.target.value as ViewState['compare'] })}>
          <option value="off">No comparison</option>
          <option value="previous_period">Compare with previous period</option>
          <option value="year_over_year">Compare with a year before</option>
        </select>
      </label>
    </div>
  );
}

function FilterChips({ filters, remove }: { filters: Filter[]; remove(index: number): void }) {
  if (filters.length === 0) return null;
  return (
    <section className="filter-chips" aria-label="Filters">
      {filters.map((filter, i) => {
        const [op, dimension, values] = filter as [string, string, (string | number)[]];
        const text = `${dimensionLabel(dimension)} ${OPERATOR_LABELS[op] ?? op} ${Array.isArray(values) ? values.join(' or ') : ''}`;
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
  const update = useCallback(
    (change: Partial<ViewState>, replace = false) => {
      const next = writeState({ ...state, ...change });
      const extra = new URLSearchParams(keep).toString();
      navigate(`${basePath}${next}${extra ? `${next ? '&' : '?'}${extra}` : ''}`, { replace });
    },
    [state, basePath, keep],
  );
  const dateRange = dateRangeOf(state);
  const filtersKey = JSON.stringify(state.filters);
  // biome-ignore lint/correctness/useExhaustiveDependencies: filtersKey stands for the filters
  const context = useMemo<DashboardContextValue>(
    () => ({
      site,
      dateRange,
      filters: state.filters,
      readOnly,
      query: (input, signal) => run({ date_range: dateRange, ...input, filters: [...state.filters, ...(input.filters ?? [])] }, signal),
      funnel: funnel ? (name, signal) => funnel(name, dateRange, state.filters, signal) : undefined,
      addFilter: (filter) => {
        const dimension = filter[1];
        update({ filters: [...state.filters.filter((f) => f[1] !== dimension), filter] });
      },
    }),
    [site, JSON.stringify(dateRange), filtersKey, readOnly, run, funnel, update],
  );
  // Keyboard shortcuts for the common ranges, as in Plausible; never while typing.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.metaKey || event.ctrlKey || event.altKey || target?.closest('input, select, textarea')) return;
      const period = PERIODS.find((p) => p.key === event.key.toLowerCase());
      if (period) update({ period: period.value, from: null, to: null });
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
            <DateRangePicker state={state} update={update} />
          </div>
        </div>
        <FilterChips filters={state.filters} remove={(index) => update({ filters: state.filters.filter((_, i) => i !== index) })} />
        <TopStats selected={state.metric} onSelect={(metric) => update({ metric }, true)} />
        <MainGraph metric={state.metric} compare={state.compare} />
        <Reports />
        <p className="muted small tz-note">Times in {site.timezone}.</p>
      </div>
    </DashboardContext.Provider>
  );
}
