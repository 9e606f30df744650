import { isValidTimeZone, timeZoneProblem } from '../../accounts/timezones.js';
import { badRequest } from '../../errors.js';
import { endOfDay, formatDate, parseIsoDate, toLocal } from '../../time/localTime.js';
import { canonicalDimension, dimensionKind, type Interval } from '../catalog.js';
import { goalsInFilters } from '../goals.js';
import { metricFacts, metricOf } from '../metrics.js';
import type { DateRange, FilterTree, MetricSpec, ParsedQuery, ResolvedQuery, SiteContext } from '../model.js';
import { comparisonRange, impliedInterval, requireStorable, resolveDateRange } from './dateRange.js';
import { bucketCount, finestFittingInterval, MAX_TIME_BUCKETS } from './timeLabels.js';

const HOUR = 3_600_000;

export function resolveQuery(
  parsed: ParsedQuery,
  context: {
    site: SiteContext;
    now: number;
    siteStart: number | null;
    extraPresets?: boolean;
    classifications?: readonly string[];
    relativeTo?: string;
    visitCounts?: boolean;
  },
): ResolvedQuery {
  const tz = parsed.timezone ?? context.site.timezone;
  if (!isValidTimeZone(tz)) throw badRequest('invalid_timezone', `#/timezone: ${timeZoneProblem(tz)}`);
  const now = relativeNow(context.now, context.relativeTo, tz);
  const range = requireStorable(
    resolveDateRange(parsed.dateRange, {
      now,
      tz,
      siteStart: context.siteStart,
      extraPresets: context.extraPresets,
      trim: parsed.trimRelativeDateRange,
    }),
    '#/date_range',
  );
  const interval = timeInterval(parsed.dimensions, range);
  const dimensions = parsed.dimensions.map((d) => (d === 'time' ? `time:${interval}` : d));
  const visitCounts = (context.visitCounts ?? false) && dimensions.some(isSessionDimension);
  checkCompatibility(
    parsed.metrics,
    parsed.metricSpecs.map((spec) => metricTable(spec, visitCounts)),
    dimensions,
    parsed.filters,
  );
  // Goal names are checked here, before anything is read, rather than when filters compile.
  goalsInFilters(parsed.filters, context.site.goals);
  const orderBy = resolveOrder(parsed.orderBy, parsed.metrics, dimensions);
  return {
    site: context.site,
    tz,
    metrics: parsed.metrics,
    specs: parsed.metricSpecs,
    dimensions,
    interval,
    filters: withVisitHostnameFilters(parsed.filters, dimensions),
    range,
    comparison: parsed.comparison ? { ...parsed.comparison, range: comparisonFor(range, parsed.comparison, { now, tz, interval, dimensions }) } : null,
    orderBy,
    limit: parsed.limit,
    offset: parsed.offset,
    exact: parsed.exact,
    timeLabels: parsed.timeLabels,
    totalRows: parsed.totalRows,
    trimRelativeDateRange: parsed.trimRelativeDateRange,
    imports: parsed.imports,
    classifications: context.classifications ?? context.site.includedClassifications,
    visitCounts,
  };
}

/** Where a visit breakdown places a visit: the hostname it entered on, or for exit pages left from. */
const VISIT_HOSTNAME: Record<string, string> = {
  'visit:source': 'visit:entry_page_hostname',
  'visit:referrer': 'visit:entry_page_hostname',
  'visit:utm_source': 'visit:entry_page_hostname',
  'visit:utm_medium': 'visit:entry_page_hostname',
  'visit:utm_campaign': 'visit:entry_page_hostname',
  'visit:utm_content': 'visit:entry_page_hostname',
  'visit:utm_term': 'visit:entry_page_hostname',
  'visit:entry_page': 'visit:entry_page_hostname',
  'visit:exit_page': 'visit:exit_page_hostname',
};

/**
 * As the reference: a top-level hostname filter also applies to where the visit entered (sources,
 * referrers, UTM tags, entry pages) or left (exit pages), so a breakdown filtered to one hostname
 * lists the visits that entered (or left) on it, not every visit that touched it. The echoed query
 * keeps the caller's filters.
 */
function withVisitHostnameFilters(filters: FilterTree[], dimensions: string[]): FilterTree[] {
  const hostname = filters.filter((f): f is Extract<FilterTree, { values: string[] }> => 'dimension' in f && f.dimension === 'event:hostname');
  const targets = [...new Set(dimensions.flatMap((d) => VISIT_HOSTNAME[d] ?? []))];
  return [...filters, ...targets.flatMap((dimension) => hostname.map((leaf) => ({ ...leaf, dimension })))];
}

/** Which table a metric is read from in this query: v1's visit counts move pageviews and events to visits. */
export function metricTable(spec: MetricSpec, visitCounts: boolean): 'event' | 'session' | 'either' {
  const metric = metricOf(spec);
  return visitCounts && metric.v1?.visitCounts ? 'session' : metric.scope;
}

/** v1's `date`: ranges are computed as if it were the end of that day, unless it is today. */
function relativeNow(now: number, relativeTo: string | undefined, tz: string): number {
  const date = relativeTo === undefined ? undefined : parseIsoDate(relativeTo);
  if (!date || formatDate(toLocal(now, tz)) === relativeTo) return now;
  return endOfDay(date, tz);
}

function timeInterval(dimensions: string[], range: DateRange): Interval {
  const explicit = dimensions.find((d) => d.startsWith('time:'));
  if (explicit === 'time:minute' && range.last - range.first > 30 * HOUR) {
    throw badRequest('invalid_dimension', 'The dimension time:minute is only available for date ranges up to 30 hours; use time:hour or a shorter range.');
  }
  const interval = explicit ? (explicit.slice(5) as Interval) : impliedInterval(range);
  if (explicit) requireFewBuckets(range, interval, explicit);
  return interval;
}

/** A time dimension over a range may not ask for more than MAX_TIME_BUCKETS buckets (comparisons too). */
function requireFewBuckets(range: DateRange, interval: Interval, dimension: string): void {
  if (bucketCount(range, interval) <= MAX_TIME_BUCKETS) return;
  throw badRequest(
    'too_many_buckets',
    `The dimension ${dimension} over this date range asks for more than ${MAX_TIME_BUCKETS.toLocaleString('en-US')} buckets; use the ${finestFittingInterval(range)} interval (time:${finestFittingInterval(range)}) or a shorter range.`,
  );
}

/** The earlier range of a comparison, held to the same bounds as the primary range. */
function comparisonFor(
  range: DateRange,
  request: NonNullable<ParsedQuery['comparison']>,
  context: { now: number; tz: string; interval: Interval; dimensions: string[] },
): DateRange {
  const earlier = requireStorable(comparisonRange(range, request, context), '#/include/comparisons');
  const time = context.dimensions.find((d) => d.startsWith('time:'));
  if (time) requireFewBuckets(earlier, context.interval, time);
  return earlier;
}

function resolveOrder(requested: ParsedQuery['orderBy'], metrics: string[], dimensions: string[]): [string, 'asc' | 'desc'][] {
  const timeDimension = dimensions.find((d) => d.startsWith('time:'));
  // An empty list asks for no particular order: the default one, as when order_by is left out.
  if (!requested || requested.length === 0)
    return timeDimension
      ? [
          [timeDimension, 'asc'],
          [metrics[0]!, 'desc'],
        ]
      : [[metrics[0]!, 'desc']];
  return requested.map(([name, direction], index) => {
    const resolved = name === 'time' && timeDimension ? timeDimension : canonicalDimension(name);
    if (!metrics.includes(resolved) && !dimensions.includes(resolved)) {
      throw badRequest(
        'invalid_order_by',
        `#/order_by/${index}: "${name}" is neither a queried metric nor a queried dimension; order by one of ${[...metrics, ...dimensions].join(', ')}.`,
      );
    }
    return [resolved, direction];
  });
}

/** Leaf dimensions of a filter tree, with whether each sits at the top level (not under a combinator). */
export function filterLeaves(filters: FilterTree[]): { dimension: string; topLevel: boolean; behavioral: boolean }[] {
  const leaves: { dimension: string; topLevel: boolean; behavioral: boolean }[] = [];
  const visit = (tree: FilterTree, topLevel: boolean, behavioral: boolean) => {
    if ('dimension' in tree) leaves.push({ dimension: tree.dimension, topLevel, behavioral });
    else if ('children' in tree) tree.children.forEach((child) => visit(child, tree.op === 'and' && topLevel, behavioral));
    else visit(tree.child, false, behavioral || tree.op === 'has_done' || tree.op === 'has_not_done');
  };
  filters.forEach((filter) => visit(filter, true, false));
  return leaves;
}

const isEventDimension = (d: string) => d.startsWith('event:');
/** Entry and exit pages: properties only visits (sessions rows) carry. */
export const isSessionDimension = (d: string) => {
  const kind = dimensionKind(d);
  return kind?.kind === 'column' && kind.def.scope === 'session';
};

/** Names as the reference's messages quote them: `a`, `b`. */
const quoted = (names: string[]) => names.map((name) => `\`${name}\``).join(', ');

/**
 * The rules for metrics that only make sense with certain dimensions or filters: each metric's
 * own (its registry entry, src/query/metrics.ts), then the reference's rules on visit and event
 * metrics and dimensions. The reference's wording leads each message (clients match on it); our
 * reason follows.
 */
function checkCompatibility(metrics: string[], scopes: ('event' | 'session' | 'either')[], dimensions: string[], filters: FilterTree[]): void {
  const fail = (message: string) => {
    throw badRequest('invalid_metric_combination', message);
  };
  const use = { dimensions, filters: filterLeaves(filters).filter((leaf) => !leaf.behavioral) };
  for (const metric of metrics) {
    const problem = metricFacts(metric).refuses?.(use, metric);
    if (problem !== undefined) fail(problem);
  }
  const sessionMetrics = metrics.filter((_, i) => scopes[i] === 'session');
  const eventDimensions = dimensions.filter((d) => isEventDimension(d) && d !== 'event:page' && d !== 'event:hostname');
  if (sessionMetrics.length && eventDimensions.length) {
    fail(`Session metric(s) ${quoted(sessionMetrics)} cannot be queried along with event dimensions (${quoted(eventDimensions)}): a visit has many events.`);
  }
  const eventMetrics = metrics.filter((_, i) => scopes[i] === 'event');
  const sessionDimensions = dimensions.filter(isSessionDimension);
  const ownDimension = metrics.map(metricFacts).find((facts) => facts.refusesEventMetrics);
  if (sessionDimensions.length && (eventMetrics.length || dimensions.some(isEventDimension)) && !ownDimension) {
    fail(
      `Event metric(s) or dimensions (${[...eventMetrics, ...dimensions.filter(isEventDimension)].join(', ')}) cannot be combined with visit dimension(s) ${sessionDimensions.join(', ')}.`,
    );
  }
  if (ownDimension?.refusesEventMetrics && eventMetrics.length) fail(ownDimension.refusesEventMetrics(eventMetrics));
}
