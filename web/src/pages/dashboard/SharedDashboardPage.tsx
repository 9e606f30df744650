import { funnelReport } from '@contracts/funnels';
import { queryResponse } from '@contracts/query';
import { embedOptions } from '@contracts/sharedLinks';
import { siteDescription } from '@contracts/sites';
import { useCallback, useEffect, useLayoutEffect, useState } from 'react';
import { ApiError, api } from '../../api';
import { useLocation } from '../../router';
import { fixTheme } from '../../theme';
import { Loading } from '../../ui/Loading';
import { AuthForm, Field } from '../AuthForm';
import type { Filter, QueryInput, SiteInfo } from './context';
import { DashboardView, type SiteView } from './DashboardView';

/**
 * An embedded link's look (`embed=true`): its theme, and the page's background behind the cards
 * (docs/dashboard.md "Embedding"); both are undone when the page is left.
 */
function useEmbedLook(search: URLSearchParams): boolean {
  const { embed, theme, background } = embedOptions.parse(Object.fromEntries(search));
  const embedded = embed === 'true';
  useLayoutEffect(() => {
    if (!embedded) return;
    fixTheme(theme);
    if (background) document.documentElement.style.setProperty('--bg', background);
    return () => {
      fixTheme(null);
      document.documentElement.style.removeProperty('--bg');
    };
  }, [embedded, theme, background]);
  return embedded;
}

/**
 * `/share/<domain>?auth=<slug>` (and `/share/<domain>/explore`): the dashboard and Explore read-only, behind the link's password when
 * it has one; `embed=true` inside another site's page.
 */
export default function SharedDashboardPage({ domain, view }: { domain: string; view?: SiteView }) {
  const { search } = useLocation();
  const embedded = useEmbedLook(search);
  const slug = search.get('auth') ?? '';
  const base = `/app/api/share/${encodeURIComponent(slug)}`;
  const [site, setSite] = useState<SiteInfo | null>(null);
  const [state, setState] = useState<'loading' | 'password' | 'ready' | 'missing'>('loading');
  const [password, setPassword] = useState('');
  const load = useCallback(() => {
    api
      .get(base, siteDescription)
      .then((info) => {
        setSite(info);
        setState('ready');
      })
      .catch((failure: unknown) => setState(failure instanceof ApiError && failure.code === 'password_required' ? 'password' : 'missing'));
  }, [base]);
  useEffect(load, [load]);
  const run = useCallback((input: QueryInput, signal?: AbortSignal) => api.post(`${base}/query`, input, queryResponse, signal), [base]);
  const funnel = useCallback(
    (name: string, dateRange: string | [string, string], filters: Filter[], signal?: AbortSignal) =>
      api.post(`${base}/funnel`, { funnel: name, date_range: dateRange, filters }, funnelReport, signal),
    [base],
  );
  if (state === 'loading') return <Loading />;
  if (state === 'password') {
    return (
      <AuthForm
        title={`${domain} is shared with a password`}
        lead="Enter the password you were given with the link."
        submitLabel="Open the dashboard"
        onSubmit={async () => {
          await api.post(`${base}/unlock`, { password });
          load();
        }}
      >
        <Field id="share-password" label="Password" type="password" value={password} onChange={setPassword} autoComplete="current-password" />
      </AuthForm>
    );
  }
  if (state === 'missing' || !site) {
    return (
      <AuthForm
        title="This link does not work"
        lead="The shared link does not exist (any more). Ask its owner for a new one."
        submitLabel="Try again"
        onSubmit={async () => load()}
      >
        {null}
      </AuthForm>
    );
  }
  return (
    <main className={embedded ? 'content shared-dashboard embedded' : 'content shared-dashboard'}>
      <DashboardView
        site={site}
        run={run}
        funnel={funnel}
        readOnly
        annotationsPath={`${base}/annotations`}
        basePath={`/share/${encodeURIComponent(site.domain)}`}
        download={`${base}/dashboard.zip`}
        view={view}
        journeysPath={`${base}/journeys`}
      />
    </main>
  );
}
