import { type SiteList, siteList } from '@contracts/sites';
import { useEffect, useState } from 'react';
import { teamApi } from '../../api';

export type SiteSummary = SiteList['sites'][number];

// The last list read per team: a dashboard opened from the switcher or the sites list has it at
// once (keys 1–9 work before the fresh list arrives), and the fresh list then replaces it.
const lastRead = new Map<number, SiteSummary[]>();

/**
 * A team's sites in the order the management API lists them: the sites list shows them so, and
 * the dashboard's site switcher and its keys 1–9 count in the same order.
 */
export function useTeamSites(teamId: number | undefined): { sites: SiteSummary[] | null; error: string | null } {
  const [sites, setSites] = useState<SiteSummary[] | null>(() => (teamId === undefined ? null : (lastRead.get(teamId) ?? null)));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (teamId === undefined) return;
    let current = true;
    setSites(lastRead.get(teamId) ?? null);
    setError(null);
    teamApi(teamId)
      .get('/api/v1/sites?limit=1000', siteList)
      .then((answer) => {
        lastRead.set(teamId, answer.sites);
        if (current) setSites(answer.sites);
      })
      .catch((failure: Error) => current && setError(failure.message));
    return () => {
      current = false;
    };
  }, [teamId]);
  return { sites, error };
}

/** The sites whose domain holds the search text (any case); all of them for an empty search. */
export function sitesMatching<S extends { domain: string }>(sites: S[], search: string): S[] {
  const text = search.trim().toLowerCase();
  return text === '' ? sites : sites.filter((site) => site.domain.toLowerCase().includes(text));
}

/** What a search that matches no site says. */
export const noSiteHolds = (search: string) => `No site's domain holds “${search.trim()}”.`;
