import { useRef } from 'react';
import { exactFigure, formatMetric } from '../../../format';
import { useScrollEdges } from '../../../ui/useScrollEdges';
import { type QueryResult, useDashboard } from '../context';
import { useRegionNames } from '../places';
import { columnHeading } from './conversions';
import type { PanelTab } from './panelTab';

/**
 * A panel's list: column headings, then a row per value with a bar behind it sized by its share of
 * the largest and the numbers right-aligned (or the tab's own drawing, the countries map). Picking a
 * row filters the whole dashboard by its value. Headings and rows share one grid, so every column
 * lines up; where the columns do not fit (a phone) the list scrolls sideways, its cut edge faded.
 */
export function PanelRows({
  tab,
  metrics,
  result,
  error,
  pick,
}: {
  tab: PanelTab;
  metrics: string[];
  result: QueryResult | null;
  error: string | null;
  pick(value: string): void;
}) {
  const { filters } = useDashboard();
  useRegionNames(tab.dimension === 'visit:region');
  const max = Math.max(1, ...(result?.results.map((row) => row.metrics[0] ?? 0) ?? [1]));
  const list = useRef<HTMLDivElement>(null);
  useScrollEdges(list);
  return (
    // A drawing does not scroll: its tooltip may rise above it.
    <div ref={list} className={`panel-list${tab.visual ? '' : ' scrolls-sideways'}`}>
      <div className="panel-columns muted small" hidden={Boolean(tab.visual)}>
        <span>{tab.label}</span>
        <span />
        {metrics.map((metric) => (
          <span key={metric} className="num">
            {columnHeading(metric, filters, tab.dimension)}
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
        {result && result.results.length > 0 && tab.visual?.(result, pick)}
        {!tab.visual &&
          result?.results.map((row) => {
            const value = row.dimensions[0] ?? '';
            const href = tab.href?.(value) ?? null;
            return (
              <div key={value} className="panel-row" data-value={value}>
                <div className="bar" style={{ width: `${((row.metrics[0] ?? 0) / max) * 100}%` }} aria-hidden="true" />
                <button type="button" className="row-label" onClick={() => pick(value)} title={`Filter by ${value}`}>
                  {tab.icon?.(value)}
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
                  <span key={metrics[i]} className="num" title={exactFigure(metrics[i] as string, metricValue)}>
                    {formatMetric(metrics[i] as string, metricValue, tab.currency?.(value))}
                  </span>
                ))}
              </div>
            );
          })}
      </div>
    </div>
  );
}
