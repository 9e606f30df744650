import type { FunnelReport } from '@contracts/funnels';
import type { QueryResponse } from '@contracts/query';
import { roleIn, SITE_EDITORS } from '@contracts/roles';
import type { SiteDescription, ViewedSite } from '@contracts/sites';
import { createContext, useContext } from 'react';

/**
 * The contract between the dashboard page (which owns the view's state: range, filters,
 * comparison, kept in the URL) and its panels (which ask for numbers and add filters).
 */

/** A v2 filter: `[operator, dimension, values, options?]`, or a combinator (`and`/`or`/`not`/`has_done`). */
export type Filter = [string, string, (string | number)[]] | [string, string, (string | number)[], { case_sensitive?: boolean }] | [string, ...unknown[]];

/** What POST /app/api/sites/:domain/query takes: the v2 query object without `site_id`. */
export interface QueryInput {
  metrics: string[];
  dimensions?: string[];
  filters?: Filter[];
  order_by?: [string, 'asc' | 'desc'][];
  pagination?: { limit: number; offset?: number };
  include?: Record<string, unknown>;
  date_range?: string | [string, string];
}

/** What a query answers (src/contracts/query.ts). */
export type QueryResult = QueryResponse;

/**
 * The site a dashboard shows: GET /app/api/sites/:domain adds the viewer's team, role and whether
 * they are a guest to the description a shared link reads (src/contracts/sites.ts).
 */
export type SiteInfo = SiteDescription & Partial<Pick<ViewedSite, 'team_id' | 'role' | 'guest'>>;

/** Whether the viewer may open the site's settings (team owners, admins and editors; not guests). */
export const canEditSite = (site: SiteInfo) => roleIn(site.role, SITE_EDITORS) && !site.guest;

export interface DashboardContextValue {
  site: SiteInfo;
  /** The view's date range as the query API takes it (a preset or two ISO dates). */
  dateRange: string | [string, string];
  /** The view's filters, ANDed into every panel's query. */
  filters: Filter[];
  /** Runs a query with the view's range and filters added (a panel's own filters are appended). */
  query(input: QueryInput, signal?: AbortSignal): Promise<QueryResult>;
  /** Funnel report of the view's range and filters (POST …/funnel). */
  funnel?(name: string, signal?: AbortSignal): Promise<FunnelReport>;
  /** Adds a filter to the whole dashboard (clicking a row); replaces one on the same dimension. */
  addFilter(filter: Filter): void;
  /** Counts the realtime view's refreshes; a new count is a new `query`, so panels ask again. */
  refreshes: number;
  /** Read-only views (shared links) hide what needs a signed-in owner (settings links). */
  readOnly: boolean;
}

export const DashboardContext = createContext<DashboardContextValue | null>(null);

export function useDashboard(): DashboardContextValue {
  const value = useContext(DashboardContext);
  if (!value) throw new Error('useDashboard is used outside a dashboard.');
  return value;
}
