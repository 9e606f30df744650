import { badRequest } from '../../errors.js';
import { parseIsoDate } from '../../time/localTime.js';
import { canonicalDimension, dimensionKind } from '../catalog.js';
import { METRICS, metricFacts, parseMetric, type V1Use } from '../metrics.js';
import type { EngineOptions } from '../model.js';
import { parseV1Filters } from './v1Filters.js';

/**
 * v1 query-string parameters translated into a v2 request: one engine answers both. `period`
 * and `date` become a v2 date range (30d and 6mo included), resolved in the site's time zone.
 */
export type V1Params = Record<string, string | undefined>;

export interface V1Translation {
  /** The v2 request without `include`, which each endpoint takes its part of. */
  body: { site_id: string; metrics: string[]; date_range: string | [string, string]; filters: unknown[] };
  include: { comparisons?: { mode: 'previous_period' }; imports?: true };
  options: EngineOptions;
  period: string;
}

const PERIODS = ['day', '7d', '28d', '30d', '91d', 'month', '6mo', '12mo', 'year', 'all', 'custom'];

/**
 * v1 answers its errors in the reference's words (clients of the v1 API match on them), checked in
 * the reference's order: period, date, breakdown property, filters, metrics. `property` is the
 * breakdown property, null for aggregate and timeseries.
 */
export function translateCommon(params: V1Params, defaults: { metrics?: string } = {}, property: string | null = null): V1Translation {
  const site = params.site_id?.trim();
  if (!site) throw badRequest('missing_site_id', 'The site_id parameter is required: give the domain of the site to report on.');
  const period = params.period ?? '30d';
  if (!PERIODS.includes(period)) {
    throw badRequest('invalid_period', `Error parsing \`period\` parameter: invalid period \`${period}\`. Accepted values: ${PERIODS.join(', ')}.`);
  }
  const { dateRange, relativeTo } = periodRange(period, params.date);
  if (property !== null) checkProperty(property);
  const filters = parseV1Filters(params.filters);
  checkFilterProperties(filters);
  const metrics = (params.metrics ?? defaults.metrics ?? 'visitors').split(',').map((m) => m.trim());
  checkMetrics(metrics, filters, property);
  const imports = parseFlag(params.with_imported, 'with_imported');
  const compare = params.compare;
  if (compare !== undefined && compare !== '' && compare !== 'previous_period') {
    throw badRequest('invalid_compare', `compare must be "previous_period", got "${compare}".`);
  }
  const comparisons = compare === 'previous_period' && period !== 'all';
  return {
    body: { site_id: site, metrics, date_range: dateRange, filters },
    include: { ...(comparisons ? { comparisons: { mode: 'previous_period' } } : {}), ...(imports ? { imports: true } : {}) },
    options: { extraPresets: true, countEverything: parseFlag(params.with_bots, 'with_bots'), ...(relativeTo ? { relativeTo } : {}) },
    period,
  };
}

function periodRange(period: string, date: string | undefined): { dateRange: string | [string, string]; relativeTo?: string } {
  if (period === 'custom') {
    if (date === undefined) throw badRequest('invalid_date', 'The `date` parameter is required when using a custom period.');
    const parts = date.split(',');
    if (parts.length !== 2 || !parts.every((part) => parseIsoDate(part.trim()))) {
      throw badRequest(
        'invalid_date',
        'Invalid format for `date` parameter. When using a custom period, please include two ISO-8601 formatted dates joined by a comma, e.g. date=2024-01-01,2024-01-31.',
      );
    }
    return { dateRange: [parts[0]!.trim(), parts[1]!.trim()] };
  }
  if (date === undefined || date === '') return { dateRange: period };
  if (!parseIsoDate(date))
    throw badRequest('invalid_date', `Error parsing \`date\` parameter: "${date}" is not a date. Please specify a valid date in ISO-8601 format.`);
  return { dateRange: period, relativeTo: date };
}

function parseFlag(value: string | undefined, name: string): boolean {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw badRequest('invalid_parameter', `${name} must be true or false, got "${value}".`);
}

/** A whole number from a query string within bounds, or a 400 naming the parameter. */
export function parseWholeNumber(value: string | undefined, name: string, fallback: number, range: { min: number; max: number }, problem: string): number {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < range.min || number > range.max) throw badRequest(`invalid_${name}`, `${problem} Got "${value}".`);
  return number;
}

/** Filters and breakdowns on these make a visit metric ambiguous: the reference's v1 refuses them. */
const eventOnly = (dimension: string) => dimension === 'event:name' || dimension === 'event:goal' || dimension.startsWith('event:props:');

/** The dimensions of the top-level filter leaves (v1's own grammar has no combinators). */
function filterDimensions(filters: unknown[]): string[] {
  return filters.flatMap((filter) => (Array.isArray(filter) && typeof filter[1] === 'string' ? [canonicalDimension(filter[1])] : []));
}

function checkProperty(property: string): void {
  if (property === 'event:hostname') {
    throw badRequest('invalid_property', "Property 'event:hostname' is currently not supported for breakdowns. Use POST /api/v2/query to group by hostname.");
  }
  const kind = dimensionKind(canonicalDimension(property));
  if (!kind || kind.kind === 'time')
    throw badRequest('invalid_property', `Invalid property '${property}'. Please provide a valid property for the breakdown endpoint.`);
}

function checkFilterProperties(filters: unknown[]): void {
  for (const dimension of filterDimensions(filters)) {
    const kind = dimensionKind(dimension);
    if (!kind || kind.kind === 'time') throw badRequest('invalid_filter', `Invalid filter property '${dimension}'. Please provide a valid filter property.`);
  }
}

/**
 * The reference's v1 metric rules, stricter than v2's: each metric's own (its registry entry's
 * `v1`, src/query/metrics.ts), then visit metrics refuse event-only filters and breakdowns.
 * Metrics v1 of the reference lacks (scroll_depth, percentage, revenue, …) stay available and
 * are checked by the engine.
 */
function checkMetrics(metrics: string[], filters: unknown[], property: string | null): void {
  if (new Set(metrics).size !== metrics.length) throw badRequest('invalid_metric', 'Metrics cannot be queried multiple times.');
  const use: V1Use = { dimension: property === null ? null : canonicalDimension(property), filters: filterDimensions(filters) };
  for (const metric of metrics) {
    if (!parseMetric(metric)) {
      throw badRequest('invalid_metric', `The metric \`${metric}\` is not recognized. Valid metrics: ${METRICS.join(', ')}.`);
    }
    const v1 = metricFacts(metric).v1;
    const problem = v1?.refuses?.(use) ?? (v1?.visitMetric ? visitMetricProblem(metric, use, property) : undefined);
    if (problem !== undefined) throw badRequest('invalid_metric_combination', problem);
  }
}

function visitMetricProblem(metric: string, use: V1Use, property: string | null): string | undefined {
  if (use.dimension !== null && eventOnly(use.dimension)) return `Session metric \`${metric}\` cannot be queried for breakdown by \`${property}\`.`;
  const eventFilter = use.filters.find(eventOnly);
  return eventFilter ? `Session metric \`${metric}\` cannot be queried when using a filter on \`${eventFilter}\`.` : undefined;
}
