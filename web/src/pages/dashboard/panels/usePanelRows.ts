import { useEffect, useMemo, useState } from 'react';
import { type QueryResult, useDashboard } from '../context';
import { metricsBeside } from '../state';
import { conversionMetrics } from './conversions';
import { panelError } from './panelError';
import type { PanelTab } from './panelTab';

/**
 * A panel tab's rows, asked for again whenever the view's range or filters change. A new range or
 * filter keeps the old rows (the panel dims them) until the new ones come, so nothing jumps; `clear`
 * drops them at once when another tab is chosen, as they belong to another breakdown.
 */
export function usePanelRows(tab: PanelTab | undefined, limit: number) {
  const { query, filters } = useDashboard();
  const [result, setResult] = useState<QueryResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  // Exit rate is refused beside a plain event filter: its column then goes (state.ts metricsBeside).
  const metricsKey = tab ? metricsBeside(conversionMetrics(tab.dimension, tab.metrics, filters, false), filters).join(',') : '';
  const metrics = useMemo(() => metricsKey.split(','), [metricsKey]);
  useEffect(() => {
    if (!tab || tab.content) return;
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
        setError(panelError(failure));
        setLoading(false);
      });
    return () => controller.abort();
  }, [query, tab, metrics, limit]);
  return { metrics, result, error, loading, clear: () => setResult(null) };
}
