import { useEffect, useState } from 'react';
import { useDashboard } from './context';
import { CURRENT_VISITORS_RANGE } from './controls/CurrentVisitors';
import { NobodyNotice } from './NobodyNotice';
import { StatValue } from './StatValue';
import './realtime.css';

/** What the realtime graph draws: pageviews by the minute, as Plausible's realtime graph does. */
export const REALTIME_GRAPH = { metric: 'pageviews', label: 'Pageviews' };

type Figures = Record<'current' | 'visitors' | 'pageviews', number | null>;

/**
 * The realtime view's headlines, as Plausible shows them: who is on the site now (the last five
 * minutes, as the header's "current visitors" counts), and the last 30 minutes' unique visitors and
 * pageviews. They are figures only: the graph draws pageviews, whichever was chosen before.
 */
const STATS: { key: keyof Figures; metric: string; label: string }[] = [
  { key: 'current', metric: 'visitors', label: 'Current visitors' },
  { key: 'visitors', metric: 'visitors', label: 'Unique visitors (last 30 min)' },
  { key: 'pageviews', metric: 'pageviews', label: 'Pageviews (last 30 min)' },
];

/** The realtime view's three headlines, asked again at every refresh (a new `query`). */
export function RealtimeStats() {
  const { query, filters } = useDashboard();
  const [figures, setFigures] = useState<Figures | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    setError(null);
    Promise.all([
      query({ metrics: ['visitors'], date_range: CURRENT_VISITORS_RANGE }, controller.signal),
      query({ metrics: ['visitors', 'pageviews'] }, controller.signal),
    ])
      .then(([now, lately]) => {
        const [visitors = 0, pageviews = 0] = lately.results[0]?.metrics ?? [];
        setFigures({ current: now.results[0]?.metrics[0] ?? 0, visitors, pageviews });
      })
      .catch((failure: Error) => !controller.signal.aborted && setError(failure.message));
    return () => controller.abort();
  }, [query]);
  return (
    <>
      <section className="top-stats realtime-stats card" aria-label="Top stats" aria-busy={figures === null}>
        {error && <p className="form-error">{error}</p>}
        {STATS.map(({ key, metric, label }) => (
          // Only the half hour's figures are the view's metrics; "current" counts another range.
          <div key={key} className="stat" data-stat={key} data-metric={key === 'current' ? undefined : metric}>
            <span className="stat-label">{label}</span>
            <StatValue metric={metric} value={figures?.[key]} ready={figures !== null} />
          </div>
        ))}
      </section>
      {figures && filters.length === 0 && !figures.visitors && <NobodyNotice realtime />}
    </>
  );
}
