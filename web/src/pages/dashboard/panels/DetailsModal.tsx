import { useEffect, useMemo, useRef } from 'react';
import { useScrollEdges } from '../../../ui/useScrollEdges';
import { useDashboard } from '../context';
import { metricsBeside } from '../state';
import { conversionMetrics } from './conversions';
import { DetailsTable } from './DetailsTable';
import type { PanelTab } from './panelTab';
import { useDetailsRows } from './useDetailsRows';

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
 * closes on Escape (once the search is cleared); choosing a row filters the dashboard by it, as a panel row does.
 */
export function DetailsModal({ title, tab, onClose }: { title: string; tab: PanelTab; onClose(): void }) {
  const { addFilter, filters } = useDashboard();
  const dialog = useRef<HTMLDialogElement>(null);
  // On a phone the table scrolls sideways to its last metric, its cut edge faded.
  const scroller = useRef<HTMLDivElement>(null);
  useScrollEdges(scroller);
  const metricsKey = metricsBeside(conversionMetrics(tab.dimension, tab.detailMetrics ?? detailMetrics(tab.dimension), filters, true), filters).join(',');
  const metrics = useMemo(() => metricsKey.split(','), [metricsKey]);
  const { typed, setTyped, search, order, sortBy, rows, more, loadMore, loading, error } = useDetailsRows(tab, metrics);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  const pick = (value: string) => {
    addFilter(['is', tab.dimension, [value]]);
    onClose();
  };
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
          onKeyDown={(event) => {
            // Escape clears a search first; the next one closes the view, as the dialog does.
            if (event.key === 'Escape' && typed !== '') {
              event.preventDefault();
              setTyped('');
            }
          }}
        />
      </label>
      {error && <p className="form-error small">{error}</p>}
      <div ref={scroller} className="details-scroll scrolls-sideways">
        <DetailsTable tab={tab} metrics={metrics} rows={rows} order={order} sortBy={sortBy} pick={pick} />
        {!loading && rows.length === 0 && !error && <p className="panel-empty muted">{search ? `Nothing matches “${search}”.` : 'No data for this period'}</p>}
      </div>
      <div className="details-foot">
        {loading && <span className="muted small">Loading…</span>}
        {more && !loading && (
          <button type="button" className="btn btn-small" onClick={loadMore}>
            Load more
          </button>
        )}
      </div>
    </dialog>
  );
}
