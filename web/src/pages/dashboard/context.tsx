import { createContext, useContext } from 'react';
import { roleIn, SITE_EDITORS } from '../../../../src/accounts/roles';

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

export interface QueryResult {
  results: { dimensions: string[]; metrics: (number | null)[]; comparison?: { metrics: (number | null)[]; change: (number | null)[] } }[];
  meta: Record<string, unknown> & { metric_warnings?: Record<string, { code: string; warning: string }[]>; interval?: string; present_index?: number | null };
  query: Record<string, unknown> & { date_range?: [string, string] };
}

/** GET /app/api/sites/:domain (src/web/routes/dashboard.ts). */
export interface SiteInfo {
  domain: string;
  timezone: string;
  team_id?: number;
  role?: string;
  guest?: boolean;
  locked?: boolean;
  locked_reason?: string | null;
  goals: { id: number; display_name: string; event_name?: string | null; page_path?: string | null; currency?: string | null }[];
  funnels: { id: number; name: string; steps: { goal_id?: number; display_name?: string }[] }[];
  custom_properties: string[];
  /** Days of raw events kept once rolled up; null: forever (docs/rollups.md, Retention). */
  raw_retention_days: number | null;
  /** The first day whose raw events are all kept; null while none was deleted. */
  raw_events_from: string | null;
}

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
  funnel?(name: string, signal?: AbortSignal): Promise<unknown>;
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
