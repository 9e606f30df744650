import { useEffect, useMemo, useState } from 'react';
import { formatNumber } from '../../../format';
import { useDashboard } from '../context';
import { Panel, type PanelTab } from './Panel';

const regionNames = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(undefined, { type: 'region' }) : null;
const flag = (code: string) => (/^[A-Z]{2}$/.test(code) ? String.fromCodePoint(...[...code].map((c) => 0x1f1a5 + c.charCodeAt(0))) : '');
function country(code: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return code || '(unknown)';
  try {
    return `${flag(code)} ${regionNames?.of(code) ?? code}`;
  } catch {
    return code;
  }
}

interface FunnelReport {
  steps: { display_name?: string; label?: string; visitors: number; conversion_rate?: number | string; dropoff?: number }[];
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
      <ol className="funnel">
        {report?.steps.map((step, i) => (
          <li key={step.display_name ?? step.label ?? String(step.visitors)}>
            <span className="funnel-name">{step.display_name ?? step.label}</span>
            <span className="funnel-bar">
              <span style={{ width: `${first ? (step.visitors / first) * 100 : 0}%` }} />
            </span>
            <span className="num">{formatNumber(step.visitors)} visitors</span>
            <span className="num muted">{i > 0 ? `−${formatNumber(step.dropoff ?? 0)} dropped` : ''}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Every report panel of the dashboard, in a responsive grid. */
export function Reports() {
  const { site } = useDashboard();
  const sources = useMemo<PanelTab[]>(
    () => [
      { label: 'Channels', dimension: 'visit:channel', metrics: ['visitors'] },
      { label: 'Sources', dimension: 'visit:source', metrics: ['visitors', 'bounce_rate'] },
      { label: 'Campaigns', dimension: 'visit:utm_campaign', metrics: ['visitors'] },
      { label: 'UTM medium', dimension: 'visit:utm_medium', metrics: ['visitors'] },
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
      { label: 'Countries', dimension: 'visit:country', metrics: ['visitors'], render: country },
      { label: 'Regions', dimension: 'visit:region', metrics: ['visitors'] },
      { label: 'Cities', dimension: 'visit:city', metrics: ['visitors'] },
    ],
    [],
  );
  const devices = useMemo<PanelTab[]>(
    () => [
      { label: 'Browsers', dimension: 'visit:browser', metrics: ['visitors'] },
      { label: 'Operating systems', dimension: 'visit:os', metrics: ['visitors'] },
      { label: 'Devices', dimension: 'visit:device', metrics: ['visitors'] },
    ],
    [],
  );
  const goals = useMemo<PanelTab[]>(() => [{ label: 'Goal', dimension: 'event:goal', metrics: ['visitors', 'events', 'conversion_rate'] }], []);
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
          <Panel title="Properties" tabs={props} />
        </div>
      )}
      <Funnels />
    </div>
  );
}
