import { useEffect, useMemo, useRef, useState } from 'react';
import { formatMetric, METRIC_HEADINGS } from '../../../format';
import { type QueryResult, useDashboard } from '../context';
import { metricsBeside } from '../state';
import type { PanelTab } from './Panel';

const PAGE = 100;

/**
 * Every metric the query engine answers beside each kind of breakdown, as Plausible's details
 * views show them (pages with time on page and scroll depth, entry pages with bounce rate…).
 */
export function detailMetrics(dimension: string): string[] {
  if (dimension === 'event:page') return ['visitors', 'pageviews', 'bounce_rate', 'time_on_page', 'scroll_depth'];
  if (dimension === 'visit:entry_page') return ['visitors', 'visits', 'bounce_rate', 'visit_duration'];
  if (dimension === 'visit:exit_page') return ['visitors', 'visits', 'exit_rate'];
  if (dimension === 'event:goal') return ['visitors', 'events', 'conversion_rate'];
  if (dimension.startsWith('event:')) return ['visitors', 'events', 'percentage'];
  return ['visitors', 'visits', 'percentage', 'bounce_rate', 'visit_duration'];
}

/**
 * A panel's whole breakdown in a modal dialog: every metric, a search (a `contains` filter on the
 * dimension), sorting by any column and "Load more". The native <dialog> keeps focus inside and
 * closes on Escape; choosing a row filters the dashboard by it, as a panel row does.
 */
export function DetailsModal({ title, tab, onClose }: { title: string; tab: PanelTab; onClose(): void }) {
  const { query, addFilter, filters } = useDashboard();
  const dialog = useRef<HTMLDialogElement>(null);
  const metricsKey = metricsBeside(tab.detailMetrics ?? detailMetrics(tab.dimension), filters).join(',');
  const metrics = useMemo(() => metricsKey.split(','), [metricsKey]);
  const [search, setSearch] = useState('');
  const [typed, setTyped] = useState('');
  const [order, setOrder] = useState<[string, 'asc' | 'desc']>(['visitors', 'desc']);
  const [rows, setRows] = useState<QueryResult['results']>([]);
  const [pages, setPages] = useState(1);
  const [more, setMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  // Typing settles for a moment before it becomes a query.
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), 250);
    return () => clearTimeout(timer);
  }, [typed]);
  // A new search or order starts from the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the page count resets when these change
  useEffect(() => setPages(1), [search, order]);
  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    setError(null);
    query(
      {
        metrics,
        dimensions: [tab.dimension],
        filters: [...(tab.filters ?? []), ...(search ? [['contains', tab.dimension, [search]] as [string, string, string[]]] : [])],
        order_by: [order],
        // One row past the pages tells whether there is more.
        pagination: { limit: pages * PAGE + 1 },
      },
      controller.signal,
    )
      .then((result) => {
        setRows(result.results.slice(0, pages * PAGE));
        setMore(result.results.length > pages * PAGE);
        setLoading(false);
      })
      .catch((failure: Error) => {
        if (controller.signal.aborted) return;
        setError(failure.message);
        setLoading(false);
      });
    return () => controller.abort();
  }, [query, tab, metrics, search, order, pages]);

  const sortBy = (metric: string) => setOrder(([current, direction]) => [metric, current === metric && direction === 'desc' ? 'asc' : 'desc']);
  return (
    <dialog ref={dialog} className="details-modal card" aria-label={`${title}: ${tab.label}`} onClose={onClose}>
      <div className="details-head">
        <h2>
          {title} <span className="muted">· {tab.label}</span>
        </h2>
        <button type="button" className="btn btn-small" onClick={onClose} aria-label="Close">
          ✕
        </button>
      </div>
      <label className="details-search">
        <span className="visually-hidden">Search {tab.label}</span>
        <input
          className="input"
          type="search"
          placeholder={`Search ${tab.label.toLowerCase()}`}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
        />
      </label>
      {error && <p className="form-error small">{error}</p>}
      <div className="details-scroll">
        <table className="details-table">
          <thead>
            <tr>
              <th scope="col">{tab.label}</th>
              {metrics.map((metric) => (
                <th key={metric} scope="col" className="num" aria-sort={order[0] === metric ? (order[1] === 'desc' ? 'descending' : 'ascending') : 'none'}>
                  <button type="button" className="sort" onClick={() => sortBy(metric)}>
                    {METRIC_HEADINGS[metric] ?? metric}
                    {order[0] === metric ? (order[1] === 'desc' ? ' ↓' : ' ↑') : ''}
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const value = row.dimensions[0] ?? '';
              return (
                <tr key={value} data-value={value}>
                  <td>
                    <button
                      type="button"
                      className="row-label"
                      title={`Filter by ${value}`}
                      onClick={() => {
                        addFilter(['is', tab.dimension, [value]]);
                        onClose();
                      }}
                    >
                      {tab.render ? tab.render(value) : value}
                    </button>
                  </td>
                  {row.metrics.map((metricValue, i) => (
                    <td key={metrics[i]} className="num">
                      {formatMetric(metrics[i] as string, metricValue, tab.currency?.(value))}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
        {!loading && rows.length === 0 && !error && <p className="panel-empty muted">{search ? `Nothing matches “${search}”.` : 'No data for this period'}</p>}
      </div>
      <div className="details-foot">
        {loading && <span className="muted small">Loading…</span>}
        {more && !loading && (
          <button type="button" className="btn btn-small" onClick={() => setPages(pages + 1)}>
            Load more
          </button>
        )}
      </div>
    </dialog>
  );
}
