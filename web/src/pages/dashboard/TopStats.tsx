import { useEffect, useMemo, useState } from 'react';
import { formatMetric, formatPercent } from '../../format';
import { type QueryResult, useDashboard } from './context';
import { headlinesFor, type TopMetric } from './headlines';
import { NobodyNotice } from './NobodyNotice';
import { RealtimeStats } from './RealtimeStats';
import { StatValue } from './StatValue';
import { metricsBeside } from './state';

type Comparison = { mode: string; date_range?: [string, string] } | null;

/**
 * The headlines' figures with their change against the comparison (the previous period when none
 * is chosen). A headline the engine refuses beside the filters (views per visit beside a page
 * filter) is not asked for, and reads "—".
 */
function useHeadlineFigures(headlines: { list: TopMetric[] }, comparison: Comparison) {
  const { query, filters } = useDashboard();
  // The list is keyed by its text so it changes only when the asked metrics do.
  const metricsKey = metricsBeside(
    headlines.list.map((m) => m.metric),
    filters,
  ).join(',');
  const metrics = useMemo(() => metricsKey.split(','), [metricsKey]);
  // The answer keeps the metric list it was asked with: while a new query runs, the old numbers
  // stay (dimmed) under their own metrics, never shifted onto others.
  const [answer, setAnswer] = useState<{ metrics: string[]; result: QueryResult } | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const comparisonKey = JSON.stringify(comparison ?? { mode: 'previous_period' });
  useEffect(() => {
    const controller = new AbortController();
    setError(null);
    setLoading(true);
    query({ metrics, include: { comparisons: JSON.parse(comparisonKey) } }, controller.signal)
      .then((result) => {
        setAnswer({ metrics, result });
        setLoading(false);
      })
      .catch((failure: Error) => {
        if (controller.signal.aborted) return;
        setError(failure.message);
        setLoading(false);
      });
    return () => controller.abort();
  }, [query, metrics, comparisonKey]);
  return { answer, loading, error };
}

const changeTitle = (comparison: Comparison) =>
  comparison?.mode === 'year_over_year'
    ? 'Change against a year before'
    : comparison?.mode === 'custom'
      ? 'Change against the compared range'
      : 'Change against the previous period';

/** The compared figures' name in a card ("Previous period: 1.2k"). */
const comparedName = (comparison: Comparison) =>
  comparison?.mode === 'year_over_year' ? 'A year before' : comparison?.mode === 'custom' ? 'Compared range' : 'Previous period';

type TopStatsProps = {
  selected: string;
  onSelect(metric: string): void;
  /** The view's comparison; without one the change is against the previous period. */
  comparison: Comparison;
};

/** The headline numbers: the realtime view's own three, or the period's. */
export function TopStats(props: TopStatsProps) {
  const { dateRange } = useDashboard();
  return dateRange === 'realtime' ? <RealtimeStats /> : <PeriodStats {...props} />;
}

/** The period's headline numbers (six, or a goal's), each with its change against the previous period; a click picks the graph's metric. */
function PeriodStats({ selected, onSelect, comparison }: TopStatsProps) {
  const { filters, site } = useDashboard();
  const headlinesKey = JSON.stringify(headlinesFor(filters, site));
  const headlines = useMemo<{ list: TopMetric[]; currency?: string }>(() => JSON.parse(headlinesKey), [headlinesKey]);
  const { answer, loading, error } = useHeadlineFigures(headlines, comparison);
  const result = answer?.result ?? null;
  const row = result?.results[0];
  const nobody = !loading && answer !== null && filters.length === 0 && (row?.metrics[answer.metrics.indexOf('visitors')] ?? 0) === 0;
  return (
    <>
      <section className={`top-stats card${loading && answer ? ' stale' : ''}`} aria-label="Top stats" aria-busy={loading}>
        {error && <p className="form-error">{error}</p>}
        {headlines.list.map(({ metric, label, lowerIsBetter }) => {
          const i = answer ? answer.metrics.indexOf(metric) : -1;
          const value = i < 0 ? null : row?.metrics[i];
          const change = i < 0 ? null : row?.comparison?.change[i];
          const previous = i < 0 ? null : row?.comparison?.metrics[i];
          const good = change === null || change === undefined || change === 0 ? null : lowerIsBetter ? change < 0 : change > 0;
          const compared = result ? `${comparedName(comparison)}: ${formatMetric(metric, previous, headlines.currency)}` : undefined;
          return (
            <button
              key={metric}
              type="button"
              className={`stat${selected === metric ? ' selected' : ''}`}
              onClick={() => onSelect(metric)}
              aria-pressed={selected === metric}
              data-metric={metric}
            >
              <span className="stat-label">{label}</span>
              <StatValue metric={metric} value={value} currency={headlines.currency} ready={result !== null} />
              <span
                className={`stat-change${good === null ? '' : good ? ' good' : ' bad'}`}
                title={compared ? `${changeTitle(comparison)} (${compared})` : undefined}
              >
                {result
                  ? change === null || change === undefined
                    ? '—'
                    : `${change > 0 ? '↑' : change < 0 ? '↓' : ''} ${formatPercent(Math.abs(change))}`
                  : '\u00a0'}
              </span>
              {compared && <span className="stat-previous">{compared}</span>}
            </button>
          );
        })}
      </section>
      {nobody && <NobodyNotice realtime={false} />}
    </>
  );
}
