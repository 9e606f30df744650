import { NOT_SET } from '@contracts/query';
import { lazy, Suspense, useMemo } from 'react';
import { type Filter, useDashboard } from '../context';
import { Flag } from '../Flag';
import { countryName, regionName } from '../places';
import { Behaviours } from './Behaviours';
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

/** A UTM tab lists tagged visits only, as Plausible's do: untagged ones would lead it as one "(not set)" row. */
const utmTab = (label: string, dimension: string): PanelTab => ({ label, dimension, metrics: ['visitors'], filters: [['is_not', dimension, [NOT_SET]]] });

const SOURCES: PanelTab[] = [
  { label: 'Channels', dimension: 'visit:channel', metrics: ['visitors'] },
  { label: 'Sources', dimension: 'visit:source', metrics: ['visitors', 'bounce_rate'] },
  utmTab('UTM medium', 'visit:utm_medium'),
  utmTab('UTM source', 'visit:utm_source'),
  utmTab('Campaigns', 'visit:utm_campaign'),
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

/** Every report panel of the dashboard, in a responsive grid. */
export function Reports() {
  return (
    <div className="reports">
      <Panel title="Sources" tabs={SOURCES} />
      <PagesPanel />
      <Panel title="Locations" tabs={LOCATIONS} footer={<a href="https://db-ip.com">IP Geolocation by DB-IP</a>} />
      <DevicesPanel />
      <Behaviours />
    </div>
  );
}
