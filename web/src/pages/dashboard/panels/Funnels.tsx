import type { FunnelReport } from '@contracts/funnels';
import { useEffect, useState } from 'react';
import { countOf, formatNumber, formatPercent } from '../../../format';
import { useDashboard } from '../context';
import { FunnelChart } from './FunnelChart';
import { panelError } from './panelError';

/** The chosen funnel of the view's range and filters (the server counts the visits the filters keep), drawn as a chart. */
export function FunnelReportView({ name }: { name: string }) {
  const { funnel } = useDashboard();
  const [report, setReport] = useState<FunnelReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!funnel) return;
    const controller = new AbortController();
    setReport(null);
    setError(null);
    funnel(name, controller.signal)
      // The answer is read with its contract (src/contracts/funnels.ts) by the page's funnel call.
      .then(setReport)
      .catch((failure: Error) => !controller.signal.aborted && setError(panelError(failure)));
    return () => controller.abort();
  }, [name, funnel]);
  if (error) return <p className="form-error small">{error}</p>;
  if (!report) return <div className="panel-skeleton funnel-skeleton" aria-hidden="true" />;
  if (report.entering_visitors === 0) return <p className="panel-empty muted">Nobody entered this funnel in this period.</p>;
  const last = report.steps[report.steps.length - 1];
  return (
    <div className="funnel-report">
      <p className="funnel-summary small muted">
        {countOf(report.entering_visitors, 'visitor')} entered ({formatPercent(Number(report.entering_visitors_percentage))} of{' '}
        {formatNumber(report.all_visitors)}) · {formatPercent(Number(last?.conversion_rate ?? 0))} reached the last step
      </p>
      <FunnelChart steps={report.steps} />
    </div>
  );
}
