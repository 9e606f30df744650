import { type CSSProperties, type ReactNode, useEffect, useMemo, useState } from 'react';
import { formatMetric, METRIC_HEADINGS } from '../../../format';
import { type Filter, type QueryResult, useDashboard } from '../context';
import { metricsBeside } from '../state';
import { DetailsModal } from './DetailsModal';
import { rememberedTab, rememberTab } from './rememberedTab';

export interface PanelTab {
  label: string;
  dimension: string;
  /** The first metric sizes the bars; the others are columns. */
  metrics: string[];
  /** Extra filters of this tab (a goal panel reads only goals). */
  filters?: Filter[];
  /** How a value reads (country names, "Direct / None"…). */
  render?(value: string): string;
  /** A link out to the tracked page, when the value is one. */
  href?(value: string): string | null;
  /** The currency a row's revenue is in (a goal's own). */
  currency?(value: string): string | undefined;
  /** The details view's columns, when not the usual ones of the dimension (DetailsModal.tsx). */
  detailMetrics?: string[];
  /** Draws the answer another way than as rows (the countries map); `pick` filters by a value. */
  visual?(result: QueryResult, pick: (value: string) => void): ReactNode;
  /** Rows to ask for, when not the panel's few (a map shows every country). */
  limit?: number;
}

/**
 * A report panel: tabs, a list of rows with a bar behind each sized by its share, the numbers
 * right-aligned. Clicking a row filters the whole dashboard by it. Each panel asks for its own
 * numbers, so no panel waits for another.
 */
export function Panel({
  title,
  tabs,
  footer,
  chooser,
  limit = 9,
}: {
  title: string;
  tabs: PanelTab[];
  footer?: React.ReactNode;
  /** A control beside the title that picks what the panel lists (the custom property). */
  chooser?: React.ReactNode;
  limit?: number;
}) {
  const { query, addFilter, filters, site } = useDashboard();
  const [chosen, setChosen] = useState(() => rememberedTab(site.domain, title));
  // A remembered tab the panel no longer has (a custom property's single tab) falls back to the first.
  const active = chosen < tabs.length ? chosen : 0;
  const [result, setResult] = useState<QueryResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [details, setDetails] = useState(false);
  const tab = tabs[active];
  const [loading, setLoading] = useState(true);
  // Exit rate is refused beside a plain event filter: its column then goes (state.ts metricsBeside).
  const metricsKey = tab ? metricsBeside(tab.metrics, filters).join(',') : '';
  const metrics = useMemo(() => metricsKey.split(','), [metricsKey]);
  // A new range or filter keeps the old rows (dimmed) until the new ones come: nothing jumps.
  // A new tab clears them at once (its click handler), as they belong to another breakdown.
  useEffect(() => {
    if (!tab) return;
    const controller = new AbortController();
    setLoading(true);
    setError(null);
    query({ metrics, dimensions: [tab.dimension], filters: tab.filters, pagination: { limit: tab.limit ?? limit } }, controller.signal)
      .then((answer) => {
        setResult(answer);
        setLoading(false);
      })
      .catch((failure: Error) => {
        if (controller.signal.aborted) return;
        setResult(null);
        setError(failure.message);
        setLoading(false);
      });
    return () => controller.abort();
  }, [query, tab, metrics, limit]);
  const choose = (i: number) => {
    // The old tab's rows go at once, so nothing (Details included) acts on them meanwhile.
    if (i === active) return;
    setResult(null);
    setChosen(i);
    rememberTab(site.domain, title, i);
  };
  if (!tab) return null;
  const max = Math.max(1, ...(result?.results.map((row) => row.metrics[0] ?? 0) ?? [1]));
  return (
    <section
      className={`card panel${loading && result ? ' stale' : ''}`}
      aria-label={title}
      aria-busy={loading}
      style={{ '--metrics': metrics.length } as CSSProperties}
    >
      <div className="panel-head">
        <h2>{title}</h2>
        {chooser}
        {tabs.length > 1 && (
          <div className="panel-tabs" role="tablist">
            {tabs.map((t, i) => (
              <button
                key={t.label}
                type="button"
                role="tab"
                aria-selected={i === active}
                // One tab stop for the list; arrow keys move between tabs (WAI-ARIA tabs pattern).
                tabIndex={i === active ? 0 : -1}
                className={i === active ? 'active' : ''}
                onClick={() => choose(i)}
                onKeyDown={(event) => {
                  const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
                  if (!step) return;
                  event.preventDefault();
                  const next = (i + step + tabs.length) % tabs.length;
                  choose(next);
                  const sibling = event.currentTarget.parentElement?.children[next];
                  if (sibling instanceof HTMLElement) sibling.focus();
                }}
              >
                {t.label}
              </button>
            ))}
          </div>
        )}
      </div>
      <div className="panel-columns muted small" hidden={Boolean(tab.visual)}>
        <span>{tab.label}</span>
        <span />
        {metrics.map((metric) => (
          <span key={metric} className="num">
            {METRIC_HEADINGS[metric] ?? metric}
          </span>
        ))}
      </div>
      <div className="panel-rows">
        {error && (
          <p className="form-error small clamped" title={error}>
            {error}
          </p>
        )}
        {!result && !error && <div className="panel-skeleton" aria-hidden="true" />}
        {result && result.results.length === 0 && <p className="panel-empty muted">No data for this period</p>}
        {result && result.results.length > 0 && tab.visual?.(result, (value) => addFilter(['is', tab.dimension, [value]]))}
        {!tab.visual &&
          result?.results.map((row) => {
            const value = row.dimensions[0] ?? '';
            const href = tab.href?.(value) ?? null;
            return (
              <div key={value} className="panel-row" data-value={value}>
                <div className="bar" style={{ width: `${((row.metrics[0] ?? 0) / max) * 100}%` }} aria-hidden="true" />
                <button type="button" className="row-label" onClick={() => addFilter(['is', tab.dimension, [value]])} title={`Filter by ${value}`}>
                  {tab.render ? tab.render(value) : value}
                </button>
                {href ? (
                  <a className="row-link" href={href} target="_blank" rel="noopener noreferrer nofollow" aria-label={`Open ${value}`}>
                    ↗
                  </a>
                ) : (
                  <span />
                )}
                {row.metrics.map((metricValue, i) => (
                  <span key={metrics[i]} className="num">
                    {formatMetric(metrics[i] as string, metricValue, tab.currency?.(value))}
                  </span>
                ))}
              </div>
            );
          })}
      </div>
      <div className="panel-foot small muted">
        {result && result.results.length > 0 && (
          <button type="button" className="btn btn-small details-button" onClick={() => setDetails(true)}>
            Details
          </button>
        )}
        {footer}
      </div>
      {details && <DetailsModal title={title} tab={tab} onClose={() => setDetails(false)} />}
    </section>
  );
}
