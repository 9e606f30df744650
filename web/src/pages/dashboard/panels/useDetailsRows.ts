import { useEffect, useState } from 'react';
import { type QueryResult, useDashboard } from '../context';
import { panelError } from './panelError';
import type { PanelTab } from './panelTab';

const PAGE = 100;

export type DetailsOrder = [string, 'asc' | 'desc'];

/**
 * The details view's rows: the tab's breakdown narrowed by a search (a `contains` filter on the
 * dimension, asked for once typing settles), in the chosen order, a page of 100 more at a time.
 */
export function useDetailsRows(tab: PanelTab, metrics: string[]) {
  const { query } = useDashboard();
  const [search, setSearch] = useState('');
  const [typed, setTyped] = useState('');
  const [order, setOrder] = useState<DetailsOrder>(['visitors', 'desc']);
  const [rows, setRows] = useState<QueryResult['results']>([]);
  const [pages, setPages] = useState(1);
  const [more, setMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

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
        setError(panelError(failure));
        setLoading(false);
      });
    return () => controller.abort();
  }, [query, tab, metrics, search, order, pages]);

  const sortBy = (metric: string) => setOrder(([current, direction]) => [metric, current === metric && direction === 'desc' ? 'asc' : 'desc']);
  const loadMore = () => setPages(pages + 1);
  return { typed, setTyped, search, order, sortBy, rows, more, loadMore, loading, error };
}
