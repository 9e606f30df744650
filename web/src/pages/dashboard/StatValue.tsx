import { exactFigure, formatMetric } from '../../format';

/** A headline's figure, the exact one on hover; a shimmering bar until the answer comes. */
export function StatValue({ metric, value, currency, ready }: { metric: string; value: number | null | undefined; currency?: string; ready: boolean }) {
  return ready ? (
    <span className="stat-value" title={exactFigure(metric, value)}>
      {formatMetric(metric, value, currency)}
    </span>
  ) : (
    <span className="stat-value stat-placeholder" aria-hidden="true">
      {'\u00a0'}
    </span>
  );
}
