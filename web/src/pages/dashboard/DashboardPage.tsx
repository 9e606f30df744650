import { funnelReport } from '@contracts/funnels';
import { queryResponse } from '@contracts/query';
import { viewedSite } from '@contracts/sites';
import { useCallback, useEffect, useState } from 'react';
import { api, sitePath } from '../../api';
import { Link } from '../../router';
import { Layout } from '../../ui/Layout';
import { Loading } from '../../ui/Loading';
import { canEditSite, type Filter, type QueryInput, type SiteInfo } from './context';
import { DashboardView, type SiteView } from './DashboardView';

/** `/<domain>` and `/<domain>/explore`: a signed-in viewer's dashboard and Explore (src/web/routes/dashboard.ts answers their queries). */
export default function DashboardPage({ domain, view }: { domain: string; view?: SiteView }) {
  const [site, setSite] = useState<SiteInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const base = sitePath(domain);
  useEffect(() => {
    setSite(null);
    api
      .get(base, viewedSite)
      .then(setSite)
      .catch((failure: Error) => setError(failure.message));
  }, [base]);
  // Read again in place (the page stays), once Explore has saved a funnel.
  const refreshSite = useCallback(() => api.get(base, viewedSite).then(setSite), [base]);
  const run = useCallback((input: QueryInput, signal?: AbortSignal) => api.post(`${base}/query`, input, queryResponse, signal), [base]);
  const funnel = useCallback(
    (name: string, dateRange: string | [string, string], filters: Filter[], signal?: AbortSignal) =>
      api.post(`${base}/funnel`, { funnel: name, date_range: dateRange, filters }, funnelReport, signal),
    [base],
  );
  if (error) {
    return (
      <Layout title={domain}>
        <div className="card">
          <h1>{domain}</h1>
          <p className="form-error">{error}</p>
          <Link href="/">Back to your sites</Link>
        </div>
      </Layout>
    );
  }
  if (!site) return <Loading />;
  return (
    <Layout title={<Link href="/">Sites</Link>}>
      <DashboardView
        site={site}
        run={run}
        funnel={funnel}
        readOnly={false}
        annotationsPath={`${base}/annotations`}
        basePath={`/${encodeURIComponent(site.domain)}`}
        download={`${base}/dashboard.zip`}
        view={view}
        journeysPath={`${base}/journeys`}
        refreshSite={refreshSite}
        header={
          canEditSite(site) ? (
            <Link href={`/${encodeURIComponent(site.domain)}/settings`} className="btn btn-small">
              Settings
            </Link>
          ) : null
        }
      />
    </Layout>
  );
}
