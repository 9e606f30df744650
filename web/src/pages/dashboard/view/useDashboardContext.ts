import type { FunnelReport } from '@contracts/funnels';
import { useMemo } from 'react';
import type { DashboardContextValue, Filter, QueryInput, QueryResult, SiteInfo } from '../context';
import { dateRangeOf, type ViewState } from '../state';
import { recentAnswers } from './recentAnswers';
import { REALTIME_REFRESH_MS } from './useRealtimeRefreshes';

/** How a dashboard asks the engine: the signed-in route, or a shared link's. */
export interface DashboardSources {
  site: SiteInfo;
  run: (input: QueryInput, signal?: AbortSignal) => Promise<QueryResult>;
  funnel?: (name: string, dateRange: string | [string, string], filters: Filter[], signal?: AbortSignal) => Promise<FunnelReport>;
  readOnly: boolean;
  /** Where the site's graph notes are read (and, for its editors, written): GET, POST, PUT/DELETE …/:id. */
  annotationsPath?: string;
}

/**
 * What the panels are given (context.tsx): every query with the view's range, filters and
 * imported-data choice added, and adding a filter to the view (one per dimension). It changes only
 * with those, so the panels ask again only when their numbers would change. A view seen moments
 * ago (a chip removed, the range switched back) is answered from its recent answers, no older than
 * the realtime view's own refresh.
 */
export function useDashboardContext(
  { site, run, funnel, readOnly }: DashboardSources,
  state: ViewState,
  update: (change: Partial<ViewState>) => void,
  refreshes: number,
  today: string,
): DashboardContextValue {
  const dateRange = dateRangeOf(state, today);
  const filtersKey = JSON.stringify(state.filters);
  // biome-ignore lint/correctness/useExhaustiveDependencies: another source (another site) starts with no answers
  const answers = useMemo(() => recentAnswers<QueryResult>({ freshForMs: REALTIME_REFRESH_MS, max: 200, now: Date.now }), [run]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: filtersKey stands for the filters
  return useMemo<DashboardContextValue>(
    () => ({
      site,
      dateRange,
      filters: state.filters,
      readOnly,
      query: (input, signal) => {
        const asked: QueryInput = {
          date_range: dateRange,
          ...input,
          filters: [...state.filters, ...(input.filters ?? [])],
          include: { ...(state.imported ? { imports: true } : {}), ...input.include },
        };
        // The realtime view's every refresh asks anew.
        return answers.through(JSON.stringify([refreshes, asked]), () => run(asked, signal));
      },
      funnel: funnel ? (name, signal) => funnel(name, dateRange, state.filters, signal) : undefined,
      addFilter: (filter) => {
        const dimension = filter[1];
        update({ filters: [...state.filters.filter((f) => f[1] !== dimension), filter] });
      },
      refreshes,
    }),
    [site, JSON.stringify(dateRange), filtersKey, state.imported, readOnly, run, funnel, update, refreshes, answers],
  );
}
