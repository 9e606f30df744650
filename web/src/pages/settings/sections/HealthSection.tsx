import { type IngestionHealth, ingestionHealth, type OutcomeGuide } from '@contracts/ingestion';
import { useState } from 'react';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Loading } from '../../../ui/Loading';
import { useOutcomeGuide } from '../../../ui/outcomeGuide';
import { Section } from '../../../ui/Section';
import { useResource } from '../../../ui/useResource';
import type { SiteSectionProps } from '../siteSection';

const WINDOWS = [
  { hours: 24, label: 'Last 24 hours' },
  { hours: 168, label: 'Last 7 days' },
];

/** Colours by outcome kind, varied within a kind so stacked bars stay readable. */
const PALETTE = {
  accepted: ['var(--good)'],
  classified: ['#a78bfa', '#8b5cf6', '#c4b5fd', '#7c3aed', '#ddd6fe'],
  dropped: ['#f97316', '#ef4444', '#f59e0b', '#dc2626', '#fb923c', '#b91c1c', '#fbbf24'],
};

function colours(outcomes: string[], guide: Record<string, OutcomeGuide>): Record<string, string> {
  const used = { accepted: 0, classified: 0, dropped: 0 };
  const result: Record<string, string> = {};
  for (const outcome of outcomes) {
    const kind = guide[outcome]?.kind ?? 'dropped';
    const list = PALETTE[kind];
    result[outcome] = list[used[kind] % list.length] as string;
    used[kind] += 1;
  }
  return result;
}

/** Accepted events against every drop reason and classification, per hour, with what each means. */
export function HealthSection({ site, api }: SiteSectionProps) {
  const [hours, setHours] = useState(24);
  const health = useResource(
    (signal) => api.get(`/api/v1/sites/${encodeURIComponent(site.domain)}/ingestion?hours=${hours}`, ingestionHealth, signal),
    [site.domain, hours],
  );
  const guide = useOutcomeGuide();
  const outcomes = health.data ? Object.keys(health.data.totals).sort((a, b) => (health.data?.totals[b] ?? 0) - (health.data?.totals[a] ?? 0)) : [];
  const legend = guide.data?.outcomes ?? {};
  const colour = colours(outcomes, legend);
  // Every outcome is explained, also those that did not happen in the window, so the panel teaches them all.
  const quiet = Object.keys(legend).filter((outcome) => health.data && !(outcome in health.data.totals));
  return (
    <Section
      title="Ingestion health"
      description="What happened to every event sent to this site: counted, classified (stored, left out of reports) or dropped, and why."
    >
      <fieldset className="segmented">
        <legend className="visually-hidden">Window</legend>
        {WINDOWS.map((w) => (
          <button
            key={w.hours}
            type="button"
            className={`btn btn-small${hours === w.hours ? ' active' : ''}`}
            aria-pressed={hours === w.hours}
            onClick={() => setHours(w.hours)}
          >
            {w.label}
          </button>
        ))}
      </fieldset>
      <ErrorNote error={health.error ?? guide.error} />
      {!health.data && !health.error && <Loading label="Loading the ingestion counts…" />}
      {health.data && outcomes.length === 0 && <p className="muted">No events in this window.</p>}
      {health.data && outcomes.length > 0 && (
        <>
          <HealthChart health={health.data} hours={hours} outcomes={outcomes} colour={colour} />
          <table className="health-table">
            <thead>
              <tr>
                <th scope="col">Outcome</th>
                <th scope="col" className="num">
                  Events
                </th>
                <th scope="col">What it means and what to do</th>
              </tr>
            </thead>
            <tbody>
              {outcomes.map((outcome) => (
                <tr key={outcome} data-outcome={outcome}>
                  <td>
                    <span className="swatch" style={{ background: colour[outcome] }} aria-hidden="true" />
                    {legend[outcome]?.label ?? outcome} <code className="small muted">{outcome}</code>
                  </td>
                  <td className="num">{(health.data?.totals[outcome] ?? 0).toLocaleString()}</td>
                  <td className="small">
                    {legend[outcome]?.meaning} <span className="muted">{legend[outcome]?.action}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {health.data && outcomes.length > 0 && <HourlyTable health={health.data} outcomes={outcomes} legend={legend} />}
      {health.data && quiet.length > 0 && (
        <details className="health-quiet">
          <summary>Other outcomes (none in this window)</summary>
          <dl>
            {quiet.map((outcome) => (
              <div key={outcome} data-quiet-outcome={outcome}>
                <dt>
                  {legend[outcome]?.label} <code className="small muted">{outcome}</code>
                </dt>
                <dd className="small">
                  {legend[outcome]?.meaning} <span className="muted">{legend[outcome]?.action}</span>
                </dd>
              </div>
            ))}
          </dl>
        </details>
      )}
    </Section>
  );
}

function HealthChart({ health, hours, outcomes, colour }: { health: IngestionHealth; hours: number; outcomes: string[]; colour: Record<string, string> }) {
  const start = Date.parse(health.from);
  const byHour = new Map(health.hours.map((h) => [Date.parse(h.hour), h.counts]));
  const slots = Array.from({ length: hours }, (_, i) => start + i * 3_600_000);
  const max = Math.max(1, ...slots.map((slot) => Object.values(byHour.get(slot) ?? {}).reduce((a, b) => a + b, 0)));
  const width = 720;
  const height = 160;
  const bar = width / hours;
  // Five evenly spaced hours under the bars (the first, the last and three between) and the peak, so the bars read as times and counts.
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((share) => slots[Math.min(hours - 1, Math.round(share * (hours - 1)))] ?? start);
  const tickLabel = (slot: number) =>
    new Date(slot).toLocaleString(undefined, hours > 48 ? { weekday: 'short', hour: 'numeric' } : { hour: 'numeric', minute: '2-digit' });
  return (
    <figure className="health-figure">
      <figcaption className="muted small">
        Peak: {max.toLocaleString()} {max === 1 ? 'event' : 'events'} in an hour
      </figcaption>
      <svg
        className="health-chart"
        viewBox={`0 0 ${width} ${height}`}
        // Bars stretch to the box on every screen width instead of shrinking into its middle.
        preserveAspectRatio="none"
        role="img"
        aria-label={`Events per hour over the last ${hours} hours, stacked by outcome`}
      >
        {slots.map((slot, i) => {
          const counts = byHour.get(slot) ?? {};
          let y = height;
          return (
            <g key={slot}>
              <title>{`${new Date(slot).toLocaleString()}: ${outcomes.map((o) => `${o} ${counts[o] ?? 0}`).join(', ')}`}</title>
              {outcomes.map((outcome) => {
                const h = ((counts[outcome] ?? 0) / max) * (height - 4);
                y -= h;
                return h > 0 ? <rect key={outcome} x={i * bar + 0.5} y={y} width={Math.max(1, bar - 1)} height={h} fill={colour[outcome]} /> : null;
              })}
            </g>
          );
        })}
      </svg>
      <div className="health-axis muted small" aria-hidden="true">
        {ticks.map((slot) => (
          <span key={slot}>{tickLabel(slot)}</span>
        ))}
      </div>
    </figure>
  );
}

/** The chart's numbers hour by hour (the hours that had events), for reading exact counts and for screen readers. */
function HourlyTable({ health, outcomes, legend }: { health: IngestionHealth; outcomes: string[]; legend: Record<string, OutcomeGuide> }) {
  const hours = [...health.hours].sort((a, b) => b.hour.localeCompare(a.hour));
  return (
    <details className="health-hours">
      <summary>Per hour, as a table</summary>
      <div className="health-hours-scroll">
        <table className="log-table">
          <thead>
            <tr>
              <th scope="col">Hour</th>
              {outcomes.map((outcome) => (
                <th key={outcome} scope="col" className="num">
                  {legend[outcome]?.label ?? outcome}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {hours.map((row) => (
              <tr key={row.hour}>
                <th scope="row" className="nowrap">
                  {new Date(row.hour).toLocaleString(undefined, { weekday: 'short', hour: 'numeric', minute: '2-digit' })}
                </th>
                {outcomes.map((outcome) => (
                  <td key={outcome} className="num">
                    {(row.counts[outcome] ?? 0).toLocaleString()}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
