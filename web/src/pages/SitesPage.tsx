import { useMemo, useState } from 'react';
import { teamApi } from '../api';
import { Link, useLocation } from '../router';
import { type SessionTeam, useSession } from '../session';
import { Layout } from '../ui/Layout';
import { Loading } from '../ui/Loading';
import { storeChoice, storedChoice } from '../ui/stored';
import { TeamPicker } from '../ui/TeamPicker';
import { SITE_LAYOUTS, SiteEntry, type SiteLayout } from './sites/SiteEntry';
import { noSiteHolds, sitesMatching, useTeamSites } from './sites/teamSites';
import './sites/sites.css';

const LAYOUT_KEY = 'svc.sites.layout';

/** The team shown: `?team=` when it is one of the user's, else their first. */
export function useCurrentTeam(): SessionTeam | undefined {
  const { session } = useSession();
  const { search } = useLocation();
  return session?.teams.find((team) => String(team.id) === search.get('team')) ?? session?.teams[0];
}

/** The search box and the cards / list choice above the sites. */
function SitesTools({
  search,
  setSearch,
  layout,
  setLayout,
}: {
  search: string;
  setSearch(text: string): void;
  layout: SiteLayout;
  setLayout(layout: SiteLayout): void;
}) {
  return (
    <div className="sites-tools">
      <input
        type="search"
        className="input sites-search"
        placeholder="Search sites"
        aria-label="Search sites"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <fieldset className="layout-toggle">
        <legend className="visually-hidden">Show the sites as</legend>
        {SITE_LAYOUTS.map((choice) => (
          <button key={choice} type="button" className="btn btn-small" aria-pressed={layout === choice} onClick={() => setLayout(choice)}>
            {choice === 'cards' ? 'Cards' : 'List'}
          </button>
        ))}
      </fieldset>
    </div>
  );
}

export function SitesPage() {
  const { session } = useSession();
  const team = useCurrentTeam();
  const { sites, error } = useTeamSites(team?.id);
  const [search, setSearch] = useState('');
  const [layout, setLayout] = useState(() => storedChoice(LAYOUT_KEY, SITE_LAYOUTS, 'cards'));
  const teamId = team?.id;
  // One client per team, so each site's figures are asked for once and not again on every keystroke of the search.
  const api = useMemo(() => (teamId === undefined ? null : teamApi(teamId)), [teamId]);
  const shown = sites ? sitesMatching(sites, search) : [];
  if (!session?.user) return <Loading />;
  return (
    <Layout title={team && <TeamPicker teams={session.teams} current={team} hrefOf={(id) => `/?team=${id}`} />}>
      <div className="sites-head">
        <h1>Sites</h1>
        {team && ['owner', 'admin', 'editor'].includes(team.role) && (
          <Link href={`/sites/new?team=${team.id}`} className="btn btn-primary">
            + Add a site
          </Link>
        )}
      </div>
      {team?.locked && (
        <div className="banner banner-bad" role="alert">
          This team is locked{team.locked_reason ? ` (${team.locked_reason})` : ''}: dashboards are closed until a team owner settles the account. Events are
          still collected.
        </div>
      )}
      {error && <p className="form-error">{error}</p>}
      {!sites && !error && <Loading />}
      {sites && sites.length === 0 && (
        <div className="card empty-state">
          <h2>Add your first site</h2>
          <p>Tell us its domain and time zone, paste one line into its pages, and visitors start showing up here.</p>
          {team && (
            <Link href={`/sites/new?team=${team.id}`} className="btn btn-primary">
              Add a site
            </Link>
          )}
        </div>
      )}
      {sites && sites.length > 0 && api && (
        <>
          <SitesTools
            search={search}
            setSearch={setSearch}
            layout={layout}
            setLayout={(chosen) => {
              setLayout(chosen);
              storeChoice(LAYOUT_KEY, chosen);
            }}
          />
          <div className={layout === 'cards' ? 'sites-grid' : 'card sites-list'}>
            {shown.map((site) => (
              <SiteEntry key={site.domain} site={site} api={api} layout={layout} />
            ))}
          </div>
          {shown.length === 0 && <p className="muted">{noSiteHolds(search)}</p>}
        </>
      )}
    </Layout>
  );
}
