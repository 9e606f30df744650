import { lazy, type ReactNode, Suspense, useState } from 'react';
import { Link, useLocation } from '../../router';
import { canEditSite, DashboardContext } from './context';
import { CurrentVisitors } from './controls/CurrentVisitors';
import { DashboardDownload } from './controls/DashboardDownload';
import { DateRangePicker } from './controls/DateRangePicker';
import { FilterChips } from './controls/FilterChips';
import { FilterMenu } from './FilterMenu';
import { headlinesFor } from './headlines';
import { MainGraph } from './MainGraph';
import { Reports } from './panels/Reports';
import { siteToday } from './periods';
import { useRegionNames } from './places';
import { ShortcutsHelp } from './ShortcutsHelp';
import { SiteSwitcher } from './SiteSwitcher';
import { SegmentsMenu } from './segments/SegmentsMenu';
import { comparisonOf, metricsBeside } from './state';
import { TopStats } from './TopStats';
import { type DashboardSources, useDashboardContext } from './view/useDashboardContext';
import { useRangeShortcuts } from './view/useRangeShortcuts';
import { useRealtimeRefreshes } from './view/useRealtimeRefreshes';
import { useViewState } from './view/useViewState';
import './dashboard.css';

// Explore (user journeys) is opened less often than the dashboard: its own chunk (test/web/bundleSize.test.ts).
const ExploreView = lazy(() => import('./explore/ExploreView').then((module) => ({ default: module.ExploreView })));

/** The site's two views, one path apart; both read the same range, filters and segment from the query string. */
export type SiteView = 'dashboard' | 'explore';

/** What a locked team's dashboard shows instead of its numbers. */
function LockedScreen({ reason }: { reason: string | null | undefined }) {
  return (
    <div className="card locked-screen" role="alert">
      <h1>This dashboard is locked</h1>
      <p>
        The team's account is locked{reason ? ` (${reason})` : ''}. A team owner can settle it; until then the dashboard and the API are closed. Visitors are
        still being counted, and nothing collected meanwhile is lost.
      </p>
    </div>
  );
}

/**
 * The dashboard of one site: its view state is the URL; `run` asks the engine (the signed-in
 * route, or a shared link's); `header` adds what the surrounding page wants (settings link).
 */
export function DashboardView({
  site,
  run,
  funnel,
  readOnly,
  annotationsPath,
  basePath,
  header,
  download,
  view = 'dashboard',
  journeysPath,
  refreshSite,
}: DashboardSources & {
  basePath: string;
  header?: ReactNode;
  /** Where the view's ZIP is downloaded from (src/web/dashboardZip.ts). */
  download: string;
  view?: SiteView;
  /** Where Explore asks its journeys (POST, src/web/routes/dashboard.ts and sharedDashboard.ts). */
  journeysPath: string;
  /** Reads the site again (its funnels, once Explore saved one). */
  refreshSite?: () => Promise<void>;
}) {
  const explorePath = `${basePath}/explore`;
  const { state, update } = useViewState(view === 'explore' ? explorePath : basePath);
  const query = useLocation().search.toString();
  const hrefOf = (path: string) => `${path}${query ? `?${query}` : ''}`;
  const refreshes = useRealtimeRefreshes(state.period);
  const comparison = comparisonOf(state);
  // The graph draws the chosen stat while the filters allow it (conversion rate needs a goal, views
  // per visit no page filter); otherwise the visitors, so a new filter never leaves it in error.
  const shown = metricsBeside(
    headlinesFor(state.filters, site).list.map((m) => m.metric),
    state.filters,
  );
  const metric = shown.includes(state.metric) ? state.metric : 'visitors';
  const today = siteToday(site.timezone);
  const context = useDashboardContext({ site, run, funnel, readOnly }, state, update, refreshes, today);
  const [customOpen, setCustomOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  useRangeShortcuts({ state, today, update, open: (what) => (what === 'custom' ? setCustomOpen(true) : setHelpOpen((open) => !open)) });
  // A region filter's chip reads its name.
  useRegionNames(JSON.stringify(state.filters).includes('"visit:region"'));
  // A shared link or a guest sees this one site: there are no others to switch to.
  const switchTeam = readOnly || site.guest ? undefined : site.team_id;
  if (site.locked) return <LockedScreen reason={site.locked_reason} />;
  return (
    <DashboardContext.Provider value={context}>
      <div className="dashboard">
        <div className="dashboard-bar">
          <div className="site-title">
            {switchTeam !== undefined ? <SiteSwitcher domain={site.domain} teamId={switchTeam} /> : <h1>{site.domain}</h1>}
            <CurrentVisitors run={run} open={() => update({ period: 'realtime', from: null, to: null, interval: null })} />
          </div>
          <div className="dashboard-controls">
            <nav className="view-switch" aria-label="Views">
              <Link href={hrefOf(basePath)} aria-current={view === 'dashboard' ? 'page' : undefined}>
                Dashboard
              </Link>
              <Link href={hrefOf(explorePath)} aria-current={view === 'explore' ? 'page' : undefined}>
                Explore
              </Link>
            </nav>
            {header}
            <FilterMenu
              onAdd={(filter) => {
                const text = JSON.stringify(filter);
                if (!state.filters.some((f) => JSON.stringify(f) === text)) update({ filters: [...state.filters, filter] });
              }}
            />
            {!readOnly && site.team_id !== undefined && !site.guest && (
              <SegmentsMenu
                domain={site.domain}
                teamId={site.team_id}
                canShare={canEditSite(site)}
                filters={state.filters}
                apply={(filters) => update({ filters })}
              />
            )}
            <DateRangePicker
              state={state}
              update={update}
              today={today}
              customOpen={customOpen}
              setCustomOpen={setCustomOpen}
              comparing={view === 'dashboard'}
            />
          </div>
        </div>
        <FilterChips filters={state.filters} remove={(index) => update({ filters: state.filters.filter((_, i) => i !== index) })} />
        {view === 'explore' ? (
          <Suspense fallback={<div className="card panel-skeleton explore-placeholder" aria-hidden="true" />}>
            <ExploreView journeysPath={journeysPath} dashboardHref={hrefOf(basePath)} refreshSite={refreshSite} />
          </Suspense>
        ) : (
          <>
            <TopStats selected={metric} onSelect={(metric) => update({ metric }, true)} comparison={comparison} />
            <MainGraph
              metric={metric}
              comparison={comparison}
              interval={state.interval}
              onInterval={(interval) => update({ interval })}
              imported={state.imported}
              onImported={(imported) => update({ imported })}
              annotationsPath={annotationsPath}
              today={today}
            />
            <Reports />
            <div className="dashboard-foot">
              <DashboardDownload base={download} state={state} today={today} />
              <p className="muted small tz-note">
                Times in {site.timezone}. Press <kbd>?</kbd> for keyboard shortcuts.
              </p>
            </div>
          </>
        )}
        <ShortcutsHelp open={helpOpen} close={() => setHelpOpen(false)} sites={switchTeam !== undefined} />
      </div>
    </DashboardContext.Provider>
  );
}
