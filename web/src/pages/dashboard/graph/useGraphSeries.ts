import { useEffect, useState } from 'react';
import { useDashboard } from '../context';
import type { Interval } from '../state';
import { type Comparison, intervalsOf, type Series, seriesOf } from './series';

/**
 * The graph's series of a metric in the chosen interval, asked for again when the view changes. An
 * interval the range cannot take (one chosen for another range) falls back to the range's own.
 */
export function useGraphSeries(metric: string, comparison: Comparison, interval: Interval | null) {
  const { query, dateRange } = useDashboard();
  const comparisonKey = JSON.stringify(comparison);
  const [series, setSeries] = useState<Series | null>(null);
  const [error, setError] = useState<string | null>(null);
  const rangeKey = JSON.stringify(dateRange);
  const [fits, setFits] = useState<{ rangeKey: string; intervals: Interval[] } | null>(null);
  const dimension = interval && fits?.rangeKey === rangeKey && fits.intervals.includes(interval) ? `time:${interval}` : 'time';
  // biome-ignore lint/correctness/useExhaustiveDependencies: comparisonKey stands for the comparison
  useEffect(() => {
    const controller = new AbortController();
    setError(null);
    query({ metrics: [metric], dimensions: [dimension], include: { time_labels: true, ...(comparison ? { comparisons: comparison } : {}) } }, controller.signal)
      .then((result) => {
        const intervals = intervalsOf(result, dateRange);
        setFits({ rangeKey, intervals });
        setSeries(seriesOf(result, metric, comparison, intervals));
      })
      .catch((failure: Error) => !controller.signal.aborted && setError(failure.message));
    return () => controller.abort();
  }, [query, metric, comparisonKey, dimension]);
  return { series, error };
}
