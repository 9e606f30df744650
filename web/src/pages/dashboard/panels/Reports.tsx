import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { formatNumber } from '../../../format';
import { type Filter, useDashboard } from '../context';
import { countryName } from '../countries';
import { Panel } from './Panel';
import type { PanelTab } from './panelTab';

// The map's shapes are 100 KB of data: they load only when the map is shown.
const WorldMap = lazy(() => import('./WorldMap'));

/** The one value an `is` filter on the dimension selects, if there is such a filter. */
function chosenValue(filters: Filter[], dimension: string): string | null {
  const filter = filters.find((f) => f[0] === 'is' && f[1] === dimension && Array.isArray(f[2]) && f[2].length === 1);
  const value = filter?.[2];
  return Array.isArray(value) ? String(value[0]) : null;
}

/** What POST …/funnel answers (src/query/run/funnel.ts): rates are strings of percent. */
interface FunnelReport {
  steps: { label: string; visitors: number; conversion_rate: string; dropoff: number; dropoff_percentage: string }[];
}

/** Funnel steps as bars with the drop-off between them. */
function Funnels() {
  const { site, funnel } = useDashboard();
  const [chosen, setChosen] = useState(site.funnels[0]?.name ?? '');
  const [report, setReport] = useState<FunnelReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!chosen || !funnel) return;
    const controller = new AbortController();
    setReport(null);
    funnel(chosen, controller.signal)
      // The answer's shape is the engine's (src/query/run/funnel.ts), read through one interface.
      .then((answer) => setReport(answer as FunnelReport))
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
              {formatNumber(step.visitors)} visitors · {step.conversion_rate}%
            </span>
            <span className="num muted">{i > 0 && step.dropoff > 0 ? `−${formatNumber(step.dropoff)} (${step.dropoff_percentage}%)` : ''}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Every report panel of the dashboard, in a responsive grid. */
export function Reports() {
  const { site, filters } = useDashboard();
  const sources = useMemo<PanelTab[]>(
    () => [
      { label: 'Channels', dimension: 'visit:channel', metrics: ['visitors'] },
      { label: 'Sources', dimension: 'visit:source', metrics: ['visitors', 'bounce_rate'] },
      { label: 'UTM medium', dimension: 'visit:utm_medium', metrics: ['visitors'] },
      { label: 'UTM source', dimension: 'visit:utm_source', metrics: ['visitors'] },
      { label: 'Campaigns', dimension: 'visit:utm_campaign', metrics: ['visitors'] },
    ],
    [],
  );
  const pages = useMemo<PanelTab[]>(() => {
    const pageHref = (path: string) => (path.startsWith('/') ? `https://${site.domain}${path}` : null);
    return [
      { label: 'Top pages', dimension: 'event:page', metrics: ['visitors', 'pageviews'], href: pageHref },
      { label: 'Entry pages', dimension: 'visit:entry_page', metrics: ['visitors', 'bounce_rate'], href: pageHref },
      { label: 'Exit pages', dimension: 'visit:exit_page', metrics: ['visitors', 'exit_rate'], href: pageHref },
    ];
  }, [site.domain]);
  const locations = useMemo<PanelTab[]>(
    () => [
      {
        label: 'Map',
        dimension: 'visit:country',
        metrics: ['visitors'],
        render: countryName,
        limit: 300,
        visual: (result, pick) => (
          <Suspense fallback={<div className="panel-skeleton" aria-hidden="true" />}>
            <WorldMap result={result} metric="visitors" pick={pick} label={countryName} />
          </Suspense>
        ),
      },
      { label: 'Countries', dimension: 'visit:country', metrics: ['visitors'], render: countryName },
      { label: 'Regions', dimension: 'visit:region', metrics: ['visitors'] },
      { label: 'Cities', dimension: 'visit:city', metrics: ['visitors'] },
    ],
    [],
  );
  // A chosen browser (or system) drills down to its versions, as a click on its row chooses it.
  const browser = chosenValue(filters, 'visit:browser');
  const os = chosenValue(filters, 'visit:os');
  const devices = useMemo<PanelTab[]>(
    () => [
      browser
        ? { label: `${browser} versions`, dimension: 'visit:browser_version', metrics: ['visitors'] }
        : { label: 'Browsers', dimension: 'visit:browser', metrics: ['visitors'] },
      os
        ? { label: `${os} versions`, dimension: 'visit:os_version', metrics: ['visitors'] }
        : { label: 'Operating systems', dimension: 'visit:os', metrics: ['visitors'] },
      { label: 'Screen sizes', dimension: 'visit:screen', metrics: ['visitors'] },
    ],
    [browser, os],
  );
  const goals = useMemo<PanelTab[]>(() => {
    // Revenue columns only when a goal has a currency; each goal's revenue is in its own.
    const currencies = new Map(site.goals.flatMap((goal) => (goal.currency ? [[goal.display_name, goal.currency] as const] : [])));
    const revenue = currencies.size > 0 ? ['total_revenue', 'average_revenue'] : [];
    return [
      {
        label: 'Goal',
        dimension: 'event:goal',
        metrics: ['visitors', 'events', 'conversion_rate', ...revenue.slice(0, 1)],
        detailMetrics: ['visitors', 'events', 'conversion_rate', ...revenue],
        currency: (goal) => currencies.get(goal),
      },
    ];
  }, [site.goals]);
  const [prop, setProp] = useState(site.custom_properties[0] ?? '');
  const props = useMemo<PanelTab[]>(() => (prop ? [{ label: prop, dimension: `event:props:${prop}`, metrics: ['visitors', 'events'] }] : []), [prop]);
  return (
    <div className="reports">
      <Panel title="Sources" tabs={sources} />
      <Panel title="Pages" tabs={pages} />
      <Panel title="Locations" tabs={locations} footer={<a href="https://db-ip.com">IP Geolocation by DB-IP</a>} />
      <Panel title="Devices" tabs={devices} />
      {site.goals.length > 0 && <Panel title="Goal conversions" tabs={goals} />}
      {site.custom_properties.length > 0 && (
        <div className="props-panel">
          <Panel
            title="Properties"
            tabs={props}
            chooser={
              <label className="props-select">
                <span className="muted small">Property</span>
                <select value={prop} onChange={(event) => setProp(event.target.value)}>
                  {site.custom_properties.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
              </label>
            }
          />
        </div>
      )}
      <Funnels />
    </div>
  );
}
