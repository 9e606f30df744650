import { exactFigure, formatMetric } from '../../../format';
import { type QueryResult, useDashboard } from '../context';
import { useRegionNames } from '../places';
import { columnHeading } from './conversions';
import type { PanelTab } from './panelTab';
import type { DetailsOrder } from './useDetailsRows';

/** The details view's table: a column per metric, sorted by a click on its heading; a row's value filters the dashboard. */
export function DetailsTable({
  tab,
  metrics,
  rows,
  order,
  sortBy,
  pick,
}: {
  tab: PanelTab;
  metrics: string[];
  rows: QueryResult['results'];
  order: DetailsOrder;
  sortBy(metric: string): void;
  pick(value: string): void;
}) {
  const { filters } = useDashboard();
  useRegionNames(tab.dimension === 'visit:region');
  return (
    <table className="details-table">
      <thead>
        <tr>
          <th scope="col">{tab.label}</th>
          {metrics.map((metric) => (
            <th key={metric} scope="col" className="num" aria-sort={order[0] === metric ? (order[1] === 'desc' ? 'descending' : 'ascending') : 'none'}>
              <button type="button" className="sort" onClick={() => sortBy(metric)}>
                {columnHeading(metric, filters, tab.dimension)}
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
                <button type="button" className="row-label" title={`Filter by ${value}`} onClick={() => pick(value)}>
                  {tab.icon?.(value)}
                  {tab.render ? tab.render(value) : value}
                </button>
              </td>
              {row.metrics.map((metricValue, i) => (
                <td key={metrics[i]} className="num" title={exactFigure(metrics[i] as string, metricValue)}>
                  {formatMetric(metrics[i] as string, metricValue, tab.currency?.(value))}
                </td>
              ))}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
