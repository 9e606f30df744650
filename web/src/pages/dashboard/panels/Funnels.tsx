import type { FunnelReport } from '@contracts/funnels';
import { useEffect, useState } from 'react';
import { countOf, formatNumber, formatPercent } from '../../../format';
import { useDashboard } from '../context';

/** Funnel steps as bars with the drop-off between them. */
export function Funnels() {
  const { site, funnel } = useDashboard();
  const [chosen, setChosen] = useState(site.funnels[0]?.name ?? '');
  const [report, setReport] = useState<FunnelReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!chosen || !funnel) return;
    const controller = new AbortController();
    setReport(null);
    funnel(chosen, controller.signal)
      // The answer is read with its contract (src/contracts/funnels.ts) by the page's funnel call.
      .then(setReport)
      .catch((failure: Error) => !controller.signal.aborted && setError(failure.message));
    return () => controller.abort();
  }, [chosen, funnel]);
  if (site.funnels.length === 0) return null;
  const first = report?.steps[0]?.visitors ?? 0;
  return (
    <section className="card panel wide" aria-label="Funnels">
      <div className="panel-head">
        <h2>Funnels</h2>
        <label>
          <span className="visually-hidden">Funnel</span>
          <select value={chosen} onChange={(event) => setChosen(event.target.value)}>
            {site.funnels.map((f) => (
              <option key={f.id} value={f.name}>
                {f.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      {error && <p className="form-error small">{error}</p>}
      {!report && !error && <div className="panel-skeleton funnel-skeleton" aria-hidden="true" />}
      {report && first === 0 && <p className="panel-empty muted">Nobody entered this funnel in this period.</p>}
      <ol className="funnel">
        {report?.steps.map((step, i) => (
          <li key={step.label} data-step={i + 1}>
            <span className="funnel-name">
              {i + 1}. {step.label}
            </span>
            <span className="funnel-bar">
              <span style={{ width: `${first ? (step.visitors / first) * 100 : 0}%` }} />
            </span>
            <span className="num">
              {countOf(step.visitors, 'visitor')} · {formatPercent(Number(step.conversion_rate))}
            </span>
            <span className="num muted">
              {i > 0 && step.dropoff > 0 ? `−${formatNumber(step.dropoff)} (${formatPercent(Number(step.dropoff_percentage))})` : ''}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
