import { badRequest } from '../../errors.js';
import { METRICS } from '../catalog.js';
import type { EngineOptions } from '../engine.js';
import { parseIsoDate } from '../localTime.js';
import { parseV1Filters } from './filters.js';

/**
 * v1 query-string parameters translated into a v2 request: one engine answers both. `period`
 * and `date` become a v2 date range (30d and 6mo included), resolved in the site's time zone.
 */
export type V1Params = Record<string, string | undefined>;

export interface V1Translation {
  body: Record<string, unknown>;
  options: EngineOptions;
  period: string;
}

const PERIODS = ['day', '7d', '28d', '30d', '91d', 'month', '6mo', '12mo', 'year', 'all', 'custom'];

export function translateCommon(params: V1Params, defaults: { metrics?: string } = {}): V1Translation {
  const site = params.site_id?.trim();
  if (!site) throw badRequest('missing_site_id', 'The site_id parameter is required: give the domain of the site to report on.');
  const metrics = (params.metrics ?? defaults.metrics ?? 'visitors').split(',').map((m) => m.trim());
  if (new Set(metrics).size !== metrics.length) throw badRequest('invalid_metric', 'Each metric may be asked for once; metrics names one twice.');
  for (const metric of metrics) {
    if (!(METRICS as readonly string[]).includes(metric) && !/^(sum|avg|min|max|p\d\d)\(event:props:.+\)$/.test(metric)) {
      throw badRequest('invalid_metric', `The metric "${metric}" is not recognized; choose from ${METRICS.join(', ')}.`);
    }
  }
  const period = params.period ?? '30d';
  if (!PERIODS.includes(period)) throw badRequest('invalid_period', `The period "${period}" is not one of ${PERIODS.join(', ')}.`);
  const { dateRange, relativeTo } = periodRange(period, params.date);
  const body: Record<string, unknown> = { site_id: site, metrics, date_range: dateRange, filters: parseV1Filters(params.filters) };
  // No imported data exists to merge, so with_imported is checked but changes nothing.
  parseFlag(params.with_imported, 'with_imported');
  const compare = params.compare;
  if (compare !== undefined && compare !== '' && compare !== 'previous_period') {
    throw badRequest('invalid_compare', `compare must be "previous_period", got "${compare}".`);
  }
  if (compare === 'previous_period' && period !== 'all') body.include = { comparisons: { mode: 'previous_period' } };
  return {
    body,
    options: { extraPresets: true, countEverything: parseFlag(params.with_bots, 'with_bots'), ...(relativeTo ? { relativeTo } : {}) },
    period,
  };
}

function periodRange(period: string, date: string | undefined): { dateRange: string | [string, string]; relativeTo?: string } {
  if (period === 'custom') {
    const parts = date?.split(',') ?? [];
    if (parts.length !== 2 || !parts.every((part) => parseIsoDate(part.trim()))) {
      throw badRequest('invalid_date', 'With period=custom, date must be two ISO dates joined by a comma, e.g. date=2024-01-01,2024-01-31.');
    }
    return { dateRange: [parts[0]!.trim(), parts[1]!.trim()] };
  }
  if (date === undefined || date === '') return { dateRange: period };
  if (!parseIsoDate(date)) throw badRequest('invalid_date', `The date "${date}" is not an ISO date (YYYY-MM-DD).`);
  return { dateRange: period, relativeTo: date };
}

function parseFlag(value: string | undefined, name: string): boolean {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw badRequest('invalid_parameter', `${name} must be true or false, got "${value}".`);
}

/** A whole number from a query string within bounds, or a 400 naming the parameter. */
export function parseWholeNumber(value: string | undefined, name: string, fallback: number, range: { min: number; max: number }): number {
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value)) throw badRequest(`invalid_${name}`, `${name} must be a whole number, got "${value}".`);
  const number = Number(value);
  if (number < range.min || number > range.max) throw badRequest(`invalid_${name}`, `${name} must be between ${range.min} and ${range.max}, got ${number}.`);
  return number;
}
