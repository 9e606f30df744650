import { useEffect, useMemo, useState } from 'react';
import { api } from '../../api';
import { useLocation } from '../../router';
import { Layout } from '../../ui/Layout';
import { Loading } from '../../ui/Loading';
import { DashboardContext, type DashboardContextValue, type Filter, type QueryInput, type QueryResult, type SiteInfo } from './context';
import { Reports } from './panels/Reports';

// First cut (issue 13): the page reads `period` and `filters` (JSON) from the URL and hands the
// panels a query function. The dashboard work replaces it with the full page (top stats, graph,
// date picker, filter bar, comparison).
export default function DashboardPage({ domain }: { domain: string }) {
  const { search } = useLocation();
  const [site, setSite] = useState<SiteInfo | null>(null);
  useEffect(() => {
    void api.get<SiteInfo>(`/app/api/sites/${encodeURIComponent(domain)}`).then(setSite);
  }, [domain]);
  const period = search.get('period') ?? '28d';
  const filtersParam = search.get('filters');
  const value = useMemo<DashboardContextValue | null>(() => {
    if (!site) return null;
    const filters: Filter[] = filtersParam ? (JSON.parse(filtersParam) as Filter[]) : [];
    return {
      site,
      dateRange: period,
      filters,
      readOnly: false,
      query: (input: QueryInput, signal?: AbortSignal) =>
        api.post<QueryResult>(
          `/app/api/sites/${encodeURIComponent(domain)}/query`,
          { date_range: period, ...input, filters: [...filters, ...(input.filters ?? [])] },
          signal,
        ),
      addFilter: () => {},
    };
  }, [site, period, filtersParam, domain]);
  if (!value) return <Loading />;
  return (
    <Layout title={domain}>
      <DashboardContext.Provider value={value}>
        <Reports />
      </DashboardContext.Provider>
    </Layout>
  );
}
