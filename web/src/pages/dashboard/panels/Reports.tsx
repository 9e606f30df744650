import { lazy, Suspense, useMemo, useState } from 'react';
import { type Filter, useDashboard } from '../context';
import { Flag } from '../Flag';
import { countryName, regionName } from '../places';
import { specialGoalProperty } from './conversions';
import { Funnels } from './Funnels';
import { MapPlaceholder } from './mapFrame';
import { Panel } from './Panel';
import type { PanelTab } from './panelTab';
import { WhenVisible } from './WhenVisible';

// The map's shapes are 100 KB of data: they load only when the map is shown and near the screen.
const WorldMap = lazy(() => import('./WorldMap'));

/** The one value an `is` filter on the dimension selects, if there is such a filter. */
function chosenValue(filters: Filter[], dimension: string): string | null {
  const filter = filters.find((f) => f[0] === 'is' && f[1] === dimension && Array.isArray(f[2]) && f[2].length === 1);
  const value = filter?.[2];
  return Array.isArray(value) ? String(value[0]) : null;
}

const SOURCES: PanelTab[] = [
  { label: 'Channels', dimension: 'visit:channel', metrics: ['visitors'] },
  { label: 'Sources', dimension: 'visit:source', metrics: ['visitors', 'bounce_rate'] },
  { label: 'UTM medium', dimension: 'visit:utm_medium', metrics: ['visitors'] },
  { label: 'UTM source', dimension: 'visit:utm_source', metrics: ['visitors'] },
  { label: 'Campaigns', dimension: 'visit:utm_campaign', metrics: ['visitors'] },
];

const flagOf = (code: string) => <Flag code={code} />;

const LOCATIONS: PanelTab[] = [
  {
    label: 'Map',
    dimension: 'visit:country',
    metrics: ['visitors'],
    render: countryName,
    icon: flagOf,
    limit: 300,
    visual: (result, pick) => (
      <WhenVisible placeholder={<MapPlaceholder />}>
        <Suspense fallback={<MapPlaceholder />}>
          <WorldMap result={result} metric="visitors" pick={pick} label={countryName} />
        </Suspense>
      </WhenVisible>
    ),
  },
  { label: 'Countries', dimension: 'visit:country', metrics: ['visitors'], render: countryName, icon: flagOf },
  { label: 'Regions', dimension: 'visit:region', metrics: ['visitors'], render: regionName },
  { label: 'Cities', dimension: 'visit:city', metrics: ['visitors'] },
];

/** Top, entry and exit pages, each linking out to the tracked page. */
function PagesPanel() {
  const { site } = useDashboard();
  const pages = useMemo<PanelTab[]>(() => {
    const pageHref = (path: string) => (path.startsWith('/') ? `https://${site.domain}${path}` : null);
    return [
      { label: 'Top pages', dimension: 'event:page', metrics: ['visitors', 'pageviews'], href: pageHref },
      { label: 'Entry pages', dimension: 'visit:entry_page', metrics: ['visitors', 'bounce_rate'], href: pageHref },
      { label: 'Exit pages', dimension: 'visit:exit_page', metrics: ['visitors', 'exit_rate'], href: pageHref },
    ];
  }, [site.domain]);
  return <Panel title="Pages" tabs={pages} />;
}

/** Browsers, systems and screens; a chosen browser (or system) drills down to its versions, as a click on its row chooses it. */
function DevicesPanel() {
  const { filters } = useDashboard();
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
  return <Panel title="Devices" tabs={devices} />;
}

/** The site's goals with their conversions; revenue columns only when a goal has a currency, each goal's in its own. */
function GoalsPanel() {
  const { site } = useDashboard();
  const goals = useMemo<PanelTab[]>(() => {
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
  return <Panel title="Goal conversions" tabs={goals} />;
}

/**
 * One custom property's values at a time, chosen beside the title; a filtered special goal
 * (outbound link, file download, 404) shows its own `url` or `path` property, as Plausible does.
 */
function PropertiesPanel({ special }: { special: string | null }) {
  const { site } = useDashboard();
  const [chosen, setProp] = useState(site.custom_properties[0] ?? '');
  const prop = special ?? chosen;
  const names = special && !site.custom_properties.includes(special) ? [special, ...site.custom_properties] : site.custom_properties;
  // Only events that carry the property: the rest (every pageview) would lead the list as one big "(none)" row.
  const props = useMemo<PanelTab[]>(
    () =>
      prop
        ? [{ label: prop, dimension: `event:props:${prop}`, metrics: ['visitors', 'events'], filters: [['is_not', `event:props:${prop}`, ['(none)']]] }]
        : [],
    [prop],
  );
  return (
    <div className="props-panel">
      <Panel
        title="Properties"
        tabs={props}
        chooser={
          <label className="props-select">
            <span className="muted small">Property</span>
            <select value={prop} disabled={special !== null} onChange={(event) => setProp(event.target.value)}>
              {names.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
        }
      />
    </div>
  );
}

/** Every report panel of the dashboard, in a responsive grid. */
export function Reports() {
  const { site, filters } = useDashboard();
  const special = specialGoalProperty(filters, site.goals);
  return (
    <div className="reports">
      <Panel title="Sources" tabs={SOURCES} />
      <PagesPanel />
      <Panel title="Locations" tabs={LOCATIONS} footer={<a href="https://db-ip.com">IP Geolocation by DB-IP</a>} />
      <DevicesPanel />
      {site.goals.length > 0 && <GoalsPanel />}
      {(site.custom_properties.length > 0 || special) && <PropertiesPanel special={special} />}
      <Funnels />
    </div>
  );
}
