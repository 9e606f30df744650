import { queryResponse } from '@contracts/query';
import { type SiteList, siteList } from '@contracts/sites';
import { useEffect, useState } from 'react';
import { type TeamApi, teamApi } from '../api';
import { Link, navigate, useLocation } from '../router';
import { type SessionTeam, useSession } from '../session';
import { Layout } from '../ui/Layout';
import { Loading } from '../ui/Loading';
import { Sparkline } from './sites/Sparkline';
import './sites/sites.css';

type SiteSummary = SiteList['sites'][number];

interface SiteTraffic {
  visitors: number | null;
  hourly: number[];
  error: string | null;
}

/** The team shown: `?team=` when it is one of the user's, else their first. */
export function useCurrentTeam(): SessionTeam | undefined {
  const { session } = useSession();
  const { search } = useLocation();
  return session?.teams.find((team) => String(team.id) === search.get('team')) ?? session?.teams[0];
}

/** Visitors in the last 24 hours and their hourly line, from the query API (the key is the session). */
async function trafficOf(api: TeamApi, domain: string): Promise<SiteTraffic> {
  try {
    const [total, hourly] = await Promise.all([
      api.post('/api/v2/query', { site_id: domain, metrics: ['visitors'], date_range: '24h' }, queryResponse),
      api.post(
        '/api/v2/query',
        {
          site_id: domain,
          metrics: ['visitors'],
          date_range: '24h',
          dimensions: ['time:hour'],
          include: { time_labels: true },
        },
        queryResponse,
      ),
    ]);
    const labels = hourly.meta.time_labels ?? [];
    const byLabel = new Map(hourly.results.map((row) => [row.dimensions[0], row.metrics[0] ?? 0]));
    return { visitors: total.results[0]?.metrics[0] ?? 0, hourly: labels.map((label) => byLabel.get(label) ?? 0), error: null };
  } catch (failure) {
    return { visitors: null, hourly: [], error: failure instanceof Error ? failure.message : String(failure) };
  }
}

function SiteCard({ site, api }: { site: SiteSummary; api: TeamApi }) {
  const [traffic, setTraffic] = useState<SiteTraffic | null>(null);
  useEffect(() => {
    void trafficOf(api, site.domain).then(setTraffic);
  }, [api, site.domain]);
  return (
    <Link href={`/${encodeURIComponent(site.domain)}`} className="card site-card" data-site={site.domain}>
      <div className="site-card-top">
        <span className="site-domain">{site.domain}</span>
      </div>
      <div className="site-visitors" aria-live="polite">
        {traffic === null ? '…' : traffic.visitors === null ? '—' : traffic.visitors.toLocaleString()}
        <small>{traffic?.visitors === 1 ? 'visitor' : 'visitors'} in 24 h</small>
      </div>
      {traffic?.error ? (
        <span className="muted small">{traffic.error}</span>
      ) : (
        <Sparkline points={traffic?.hourly ?? []} label={`Visitors per hour in the last 24 hours on ${site.domain}`} />
      )}
    </Link>
  );
}

export function SitesPage() {
  const { session } = useSession();
  const team = useCurrentTeam();
  const [sites, setSites] = useState<SiteSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const api = team ? teamApi(team.id) : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the team id is what the list depends on
  useEffect(() => {
    if (!team) return;
    setSites(null);
    teamApi(team.id)
      .get('/api/v1/sites?limit=1000', siteList)
      .then((answer) => setSites(answer.sites))
      .catch((failure: Error) => setError(failure.message));
  }, [team?.id]);
  if (!session?.user) return <Loading />;
  const switcher =
    session.teams.length > 1 && team ? (
      <label>
        <span className="visually-hidden">Team</span>
        <select className="team-select" value={team.id} onChange={(event) => navigate(`/?team=${event.target.value}`)}>
          {session.teams.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </label>
    ) : null;
  return (
    <Layout title={switcher ?? team?.name}>
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
        <div className="sites-grid">
          {sites.map((site) => (
            <SiteCard key={site.domain} site={site} api={api} />
          ))}
        </div>
      )}
    </Layout>
  );
}
