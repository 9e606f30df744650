import { useEffect, useState } from 'react';
import type { TeamApi } from '../../api';
import { Link } from '../../router';
import { Sparkline } from './Sparkline';
import { type SiteTraffic, trafficOf } from './siteTraffic';
import type { SiteSummary } from './teamSites';

/** How the sites list lays its sites out; the choice is remembered in the browser. */
export const SITE_LAYOUTS = ['cards', 'list'] as const;
export type SiteLayout = (typeof SITE_LAYOUTS)[number];

function useTraffic(api: TeamApi, domain: string): SiteTraffic | null {
  const [traffic, setTraffic] = useState<SiteTraffic | null>(null);
  useEffect(() => {
    let current = true;
    void trafficOf(api, domain).then((answer) => current && setTraffic(answer));
    return () => {
      current = false;
    };
  }, [api, domain]);
  return traffic;
}

/** The change on the 24 hours before (none without visitors then): up is good for visitors. */
function Change({ change }: { change: number | null }) {
  if (change === null) return null;
  const word = change > 0 ? 'up' : change < 0 ? 'down' : 'unchanged';
  return (
    <span className={`site-change${change > 0 ? ' good' : change < 0 ? ' bad' : ''}`} title={`${word} on the 24 hours before`}>
      {change > 0 ? '↑' : change < 0 ? '↓' : ''} {Math.abs(change)}%<span className="visually-hidden"> {word} on the 24 hours before</span>
    </span>
  );
}

/** One site of the sites list (a card or a row): its visitors in the last 24 hours, their change and hourly line. */
export function SiteEntry({ site, api, layout }: { site: SiteSummary; api: TeamApi; layout: SiteLayout }) {
  const traffic = useTraffic(api, site.domain);
  const visitors = traffic === null ? '…' : traffic.visitors === null ? '—' : traffic.visitors.toLocaleString();
  return (
    <Link href={`/${encodeURIComponent(site.domain)}`} className={layout === 'cards' ? 'card site-card' : 'site-row'} data-site={site.domain}>
      <span className="site-domain">{site.domain}</span>
      <span className="site-visitors" aria-live="polite">
        {visitors}
        <small>{traffic?.visitors === 1 ? 'visitor' : 'visitors'} in 24 h</small>
        {traffic && traffic.visitors !== null && <Change change={traffic.change} />}
      </span>
      {traffic?.error ? (
        <span className="muted small">{traffic.error}</span>
      ) : (
        <Sparkline points={traffic?.hourly ?? []} label={`Visitors per hour in the last 24 hours on ${site.domain}`} />
      )}
    </Link>
  );
}
