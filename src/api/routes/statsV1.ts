import type { FastifyInstance } from 'fastify';
import { NOT_SET, type QueryResponse } from '../../contracts/query.js';
import { badRequest } from '../../errors.js';
import type { Interval } from '../../query/catalog.js';
import { metricFacts } from '../../query/metrics.js';
import { timeLabels } from '../../query/plan/timeLabels.js';
import { parseWholeNumber, translateCommon } from '../../query/request/v1.js';
import { emptyValue, type QueryEngineDeps, runQuery } from '../../query/run/engine.js';
import { dayNumber, parseIsoDate } from '../../time/localTime.js';
import { singleValued } from '../requestParts.js';

/**
 * The v1 stats endpoints, translated into v2 queries for the one engine and their answers
 * translated back into v1's response shapes.
 */
export function statsV1Routes(app: FastifyInstance, engine: QueryEngineDeps): void {
  const options = { config: { scope: 'stats:read' as const } };

  app.get('/api/v1/stats/aggregate', options, async (request) => {
    const v1 = translateCommon(singleValued(request.query));
    const response = await runQuery(engine, request.caller.teamId, { ...v1.body, include: v1.include }, v1.options);
    const row = response.results[0];
    const metrics = v1.body.metrics;
    return {
      ...importsWarning(response),
      results: Object.fromEntries(
        metrics.map((metric, i) => {
          const value = row?.metrics[i] ?? null;
          if (!row?.comparison) return [metric, { value }];
          return [metric, { value, comparison_value: row.comparison.metrics[i] ?? null, change: row.comparison.change[i] ?? null }];
        }),
      ),
    };
  });

  app.get('/api/v1/stats/timeseries', options, async (request) => {
    const params = singleValued(request.query);
    const v1 = translateCommon(params);
    // Comparisons are not part of v1 timeseries.
    const body = { ...v1.body, include: { imports: v1.include.imports } };
    const metrics = v1.body.metrics;
    const interval =
      timeseriesInterval(params.interval, v1.period) ??
      intervalForSpan((await runQuery(engine, request.caller.teamId, { ...body, metrics: ['visitors'] }, v1.options)).query.date_range);
    const response = await runQuery(
      engine,
      request.caller.teamId,
      { ...body, metrics: metrics.map(groupMetric), dimensions: [`time:${interval}`], pagination: { limit: 10_000 } },
      v1.options,
    );
    return { ...importsWarning(response), results: everyBucket(response, interval, metrics) };
  });

  app.get('/api/v1/stats/breakdown', options, async (request) => {
    const params = singleValued(request.query);
    const property = params.property?.trim();
    if (!property) throw badRequest('missing_property', 'The `property` parameter is required. Please provide at least one property to show a breakdown by.');
    const v1 = translateCommon(params, {}, property);
    const limit = parseWholeNumber(params.limit, 'limit', 100, { min: 1, max: 1000 }, 'Please provide limit as a number between 1 and 1000.');
    const page = parseWholeNumber(params.page, 'page', 1, { min: 1, max: 1_000_000 }, 'Please provide page as a positive number.');
    const metrics = v1.body.metrics;
    const dimensions =
      property === 'visit:browser_version' ? ['visit:browser', property] : property === 'visit:os_version' ? ['visit:os', property] : [property];
    // In a breakdown by goals or custom properties v1's conversion rate stays site-wide.
    const perGroup = !property.startsWith('event:goal') && !property.startsWith('event:props:');
    const body = {
      ...v1.body,
      metrics: perGroup ? metrics.map(groupMetric) : metrics,
      dimensions,
      filters: [...v1.body.filters, ...implicitExclusions(property)],
      pagination: { limit, offset: (page - 1) * limit },
      // v1 breakdowns carry no comparisons.
      include: { imports: v1.include.imports },
    };
    const response = await runQuery(engine, request.caller.teamId, body, { ...v1.options, visitCounts: true });
    const keys = dimensions.map(v1Key);
    return {
      ...importsWarning(response),
      results: response.results.map((row) => ({
        ...Object.fromEntries(keys.map((key, i) => [key, row.dimensions[i]])),
        ...Object.fromEntries(metrics.map((metric, i) => [metric, row.metrics[i] ?? null])),
      })),
    };
  });

  app.get('/api/v1/stats/realtime/visitors', options, async (request, reply) => {
    const site = singleValued(request.query).site_id?.trim();
    if (!site) throw badRequest('missing_site_id', 'The site_id parameter is required: give the domain of the site to report on.');
    const response = await runQuery(engine, request.caller.teamId, { site_id: site, metrics: ['visitors'], date_range: '5m' });
    reply.type('application/json');
    return JSON.stringify(response.results[0]?.metrics[0] ?? 0);
  });
}

/**
 * As the reference's v1: when imported data was asked for but could not be included, the v2
 * answer's `imports_warning` is the top-level `warning` (docs/query-api.md, "Imported data").
 */
function importsWarning(response: QueryResponse): { warning?: string } {
  const warning = response.meta.imports_warning;
  return warning === undefined ? {} : { warning };
}

/** v1's conversion rate in a timeseries bucket or a group of most breakdowns is that group's own (its registry entry's `v1.perGroup`). */
const groupMetric = (metric: string) => metricFacts(metric).v1?.perGroup ?? metric;

/** A v1 breakdown row names its property without the scope: `source`, `page`, a custom property's own name. */
function v1Key(dimension: string): string {
  if (dimension.startsWith('event:props:')) return dimension.slice('event:props:'.length);
  return dimension.slice(dimension.indexOf(':') + 1);
}

/** v1 leaves out rows with no value for these properties instead of listing them as "(not set)". */
function implicitExclusions(property: string): unknown[] {
  // A country is a two-letter code or empty; `is_not ""` would not be one, so ask for any character.
  if (property === 'visit:country') return [['matches', property, ['.']]];
  if (['visit:region', 'visit:city', 'visit:entry_page', 'visit:exit_page'].includes(property)) return [['is_not', property, ['']]];
  if (property.startsWith('visit:utm_')) return [['is_not', property, [NOT_SET]]];
  return [];
}

const V1_INTERVALS: Record<string, Interval> = { minute: 'minute', hour: 'hour', date: 'day', day: 'day', week: 'week', month: 'month' };

/** The requested or the period's default interval; null for `all`, whose width depends on how far back the data goes. */
function timeseriesInterval(requested: string | undefined, period: string): Interval | null {
  if (requested !== undefined && requested !== '') {
    const interval = Object.hasOwn(V1_INTERVALS, requested) ? V1_INTERVALS[requested] : undefined;
    if (!interval) {
      throw badRequest(
        'invalid_interval',
        `Error parsing \`interval\` parameter: invalid interval \`${requested}\`. Valid intervals are \`day\`, \`month\` (also \`hour\`, \`week\`).`,
      );
    }
    return interval;
  }
  if (period === 'day') return 'hour';
  if (period === 'all') return null;
  if (['6mo', '12mo', 'year'].includes(period)) return 'month';
  return 'day';
}

/** As the reference: months when the range spans a whole month or more, else days, else hours. */
function intervalForSpan([first, last]: [string, string]): Interval {
  const from = parseIsoDate(first.slice(0, 10))!;
  const to = parseIsoDate(last.slice(0, 10))!;
  const months = (to.year - from.year) * 12 + (to.month - from.month) - (to.day < from.day ? 1 : 0);
  if (months > 0) return 'month';
  return dayNumber(to) > dayNumber(from) ? 'day' : 'hour';
}

/** v1 timeseries list every bucket of the range, empty ones with each metric's empty value. */
function everyBucket(response: QueryResponse, interval: Interval, metrics: string[]): Record<string, unknown>[] {
  const [first, last] = response.query.date_range;
  const tz = response.query.timezone;
  const labels = timeLabels({ first: Date.parse(first), last: Date.parse(last), unit: 'days' }, interval, tz);
  const byLabel = new Map(response.results.map((row) => [row.dimensions[0], row.metrics]));
  return labels.map((label) => {
    const values = byLabel.get(label);
    return { date: label, ...Object.fromEntries(metrics.map((metric, i) => [metric, values ? (values[i] ?? null) : emptyValue(metric)])) };
  });
}
