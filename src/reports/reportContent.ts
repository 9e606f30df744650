import type { z } from 'zod';
import type { queryRequest } from '../contracts/query.js';
import { type QueryEngineDeps, runQuery } from '../query/run/engine.js';
import type { ReportPeriod } from './periods.js';

/**
 * A report's figures, every one of them from the query engine: the answers POST /api/v2/query
 * gives for the same requests (docs/query-api.md), never SQL of its own.
 */

/** The four headline metrics, in the order the mail shows them. */
export const REPORT_METRICS = ['visitors', 'pageviews', 'bounce_rate', 'visit_duration'] as const;
export type ReportMetric = (typeof REPORT_METRICS)[number];

const TOP = 5;

export interface Figure {
  metric: ReportMetric;
  value: number | null;
  /** Against the period before: percent for counts and duration, points for the bounce rate (src/contracts/metrics.ts). */
  change: number | null;
}

export interface ReportContent {
  domain: string;
  timezone: string;
  period: ReportPeriod;
  figures: Figure[];
  sources: { name: string; visitors: number }[];
  pages: { name: string; visitors: number }[];
}

type QueryBody = z.input<typeof queryRequest>;

/** The three requests a report is made of (the tests send the same to /api/v2/query). */
export function reportQueries(domain: string, period: ReportPeriod): { totals: QueryBody; sources: QueryBody; pages: QueryBody } {
  const range: [string, string] = [period.from, period.to];
  const top = (dimension: string): QueryBody => ({
    site_id: domain,
    metrics: ['visitors'],
    date_range: range,
    dimensions: [dimension],
    order_by: [['visitors', 'desc']],
    pagination: { limit: TOP },
  });
  return {
    totals: { site_id: domain, metrics: [...REPORT_METRICS], date_range: range, include: { comparisons: { mode: 'previous_period' } } },
    sources: top('visit:source'),
    pages: top('event:page'),
  };
}

export async function loadReport(
  engine: QueryEngineDeps,
  site: { teamId: number; domain: string; timezone: string },
  period: ReportPeriod,
): Promise<ReportContent> {
  const queries = reportQueries(site.domain, period);
  const [totals, sources, pages] = await Promise.all([
    runQuery(engine, site.teamId, queries.totals),
    runQuery(engine, site.teamId, queries.sources),
    runQuery(engine, site.teamId, queries.pages),
  ]);
  const row = totals.results[0];
  const ranked = (answer: typeof sources) => answer.results.map((r) => ({ name: r.dimensions[0] ?? '', visitors: r.metrics[0] ?? 0 }));
  return {
    domain: site.domain,
    timezone: site.timezone,
    period,
    figures: REPORT_METRICS.map((metric, i) => ({ metric, value: row?.metrics[i] ?? null, change: row?.comparison?.change[i] ?? null })),
    sources: ranked(sources),
    pages: ranked(pages),
  };
}
