/**
 * The closed lists of the query language: metrics, dimensions and what each reads. Every SQL
 * identifier the compiler emits comes from here, never from a request.
 */

/**
 * What the engine knows of each built-in metric besides its SQL (src/query/compile.ts, one case
 * per metric, with its roll-up form beside its raw one):
 * - `scope`: the rows it needs — events, visits, or either (Plausible's table decider,
 *   lib/plausible/stats/table_decider.ex);
 * - `additive`: a count or sum, scaled up by the inverse rate when sampled;
 * - `empty`: what it reads when nothing happened — zero, or null for averages of nothing;
 * - `change`: how a comparison reports it — a whole percentage, percentage points (bounce
 *   rate), or points to one decimal (conversion and exit rates);
 * - `revenue`: read from revenue goals, in their currency.
 */
interface MetricFacts {
  scope: 'event' | 'session' | 'either';
  additive: boolean;
  empty: 0 | null;
  change: 'percent' | 'points' | 'points1';
  revenue?: true;
}

const METRIC_FACTS = {
  visitors: { scope: 'either', additive: true, empty: 0, change: 'percent' },
  visits: { scope: 'either', additive: true, empty: 0, change: 'percent' },
  pageviews: { scope: 'event', additive: true, empty: 0, change: 'percent' },
  events: { scope: 'event', additive: true, empty: 0, change: 'percent' },
  views_per_visit: { scope: 'session', additive: false, empty: 0, change: 'percent' },
  percentage: { scope: 'either', additive: false, empty: 0, change: 'percent' },
  bounce_rate: { scope: 'session', additive: false, empty: 0, change: 'points' },
  visit_duration: { scope: 'session', additive: false, empty: null, change: 'percent' },
  time_on_page: { scope: 'event', additive: false, empty: null, change: 'percent' },
  scroll_depth: { scope: 'event', additive: false, empty: null, change: 'percent' },
  exit_rate: { scope: 'session', additive: false, empty: null, change: 'points1' },
  conversion_rate: { scope: 'event', additive: false, empty: 0, change: 'points1' },
  group_conversion_rate: { scope: 'event', additive: false, empty: 0, change: 'points1' },
  total_revenue: { scope: 'event', additive: true, empty: 0, change: 'percent', revenue: true },
  average_revenue: { scope: 'event', additive: false, empty: null, change: 'percent', revenue: true },
  revenue_per_visitor: { scope: 'event', additive: false, empty: null, change: 'percent', revenue: true },
} as const satisfies Record<string, MetricFacts>;

export type BuiltinMetric = keyof typeof METRIC_FACTS;
export const METRICS = Object.keys(METRIC_FACTS) as BuiltinMetric[];

const isBuiltin = (metric: string): metric is BuiltinMetric => Object.hasOwn(METRIC_FACTS, metric);

/** A built-in metric's facts; custom-property aggregates are event metrics, empty as null. */
export function metricFacts(metric: string): MetricFacts {
  return isBuiltin(metric) ? METRIC_FACTS[metric] : { scope: 'event', additive: /^sum\(/.test(metric), empty: null, change: 'percent' };
}

export const PROP_AGGREGATES = ['sum', 'avg', 'min', 'max'] as const;

/** A metric as the engine understands it: a built-in one, or an aggregate of a numeric custom property. */
export type MetricSpec =
  | { kind: 'builtin'; name: BuiltinMetric }
  | { kind: 'prop'; fn: (typeof PROP_AGGREGATES)[number] | 'quantile'; quantile: number; prop: string };

const PROP_METRIC = /^(sum|avg|min|max|p([5-9][0-9]))\(event:props:(.+)\)$/;

export function parseMetric(text: string): MetricSpec | undefined {
  if (isBuiltin(text)) return { kind: 'builtin', name: text };
  const match = PROP_METRIC.exec(text);
  if (!match) return undefined;
  const [, fn = '', percentile, prop = ''] = match;
  if (percentile !== undefined) return { kind: 'prop', fn: 'quantile', quantile: Number(percentile) / 100, prop };
  return { kind: 'prop', fn: fn as (typeof PROP_AGGREGATES)[number], quantile: 0, prop };
}

/** Which table a metric needs: events only, sessions only, or either. */
export function metricScope(spec: MetricSpec): MetricFacts['scope'] {
  return spec.kind === 'prop' ? 'event' : METRIC_FACTS[spec.name].scope;
}

/** Metrics that are counts or sums, so a sample is scaled up by the inverse rate. */
export function isAdditive(spec: MetricSpec): boolean {
  return spec.kind === 'prop' ? spec.fn === 'sum' : METRIC_FACTS[spec.name].additive;
}

export const REVENUE_METRICS: readonly string[] = METRICS.filter((metric) => 'revenue' in METRIC_FACTS[metric]);

/**
 * A dimension (or filterable property): `column` is the raw value on an events or sessions row,
 * `emptyLabel` what an empty value is reported (and filtered) as. `scope` says which rows carry
 * it: visit attributes are copied onto every event row, entry and exit pages live only on sessions.
 */
export interface DimensionDef {
  scope: 'event' | 'visit' | 'session';
  column: string;
  emptyLabel: string | null;
}

const visit = (column: string, emptyLabel: string | null = '(not set)'): DimensionDef => ({ scope: 'visit', column, emptyLabel });

export const DIMENSIONS: Record<string, DimensionDef> = {
  'event:name': { scope: 'event', column: 'name', emptyLabel: null },
  'event:page': { scope: 'event', column: 'pathname', emptyLabel: null },
  'event:page_title': { scope: 'event', column: 'page_title', emptyLabel: null },
  'event:hostname': { scope: 'event', column: 'hostname', emptyLabel: null },
  'visit:source': visit('referrer_source', 'Direct / None'),
  'visit:referrer': visit('referrer', 'Direct / None'),
  'visit:channel': visit('channel', 'Direct'),
  'visit:utm_source': visit('utm_source'),
  'visit:utm_medium': visit('utm_medium'),
  'visit:utm_campaign': visit('utm_campaign'),
  'visit:utm_content': visit('utm_content'),
  'visit:utm_term': visit('utm_term'),
  'visit:country': visit('toString(country_code)', null),
  'visit:region': visit('subdivision1_code', null),
  'visit:city': visit('city', null),
  'visit:device': visit('device'),
  'visit:screen': visit('screen_size'),
  'visit:browser': visit('browser'),
  'visit:browser_version': visit('browser_version'),
  'visit:os': visit('operating_system'),
  'visit:os_version': visit('operating_system_version'),
  'visit:language': visit('language'),
  'visit:entry_page': { scope: 'session', column: 'entry_page', emptyLabel: null },
  'visit:exit_page': { scope: 'session', column: 'exit_page', emptyLabel: null },
  // Beyond the spec's list, as in the reference: the hostnames a visit entered and left on.
  'visit:entry_page_hostname': { scope: 'session', column: 'hostname', emptyLabel: null },
  'visit:exit_page_hostname': { scope: 'session', column: 'exit_page_hostname', emptyLabel: null },
};

/** Older names kept for integrations written against them. */
export const DIMENSION_ALIASES: Record<string, string> = {
  'visit:screen_size': 'visit:screen',
  'visit:device_type': 'visit:device',
  'event:path': 'event:page',
};

export const TIME_DIMENSIONS = ['time', 'time:minute', 'time:hour', 'time:day', 'time:week', 'time:month'] as const;
export type Interval = 'minute' | 'hour' | 'day' | 'week' | 'month';

export const PROPS_PREFIX = 'event:props:';

export type DimensionKind =
  | { kind: 'column'; def: DimensionDef }
  | { kind: 'prop'; prop: string }
  | { kind: 'goal' }
  | { kind: 'time'; interval: Interval | null };

/** Classify a (canonical) dimension name, or undefined when it is not one. */
export function dimensionKind(name: string): DimensionKind | undefined {
  // Own keys only: a name such as "toString" or "constructor" must not find Object's prototype.
  if (Object.hasOwn(DIMENSIONS, name)) return { kind: 'column', def: DIMENSIONS[name]! };
  if (name === 'event:goal') return { kind: 'goal' };
  if (name.startsWith(PROPS_PREFIX) && name.length > PROPS_PREFIX.length) return { kind: 'prop', prop: name.slice(PROPS_PREFIX.length) };
  if ((TIME_DIMENSIONS as readonly string[]).includes(name)) return { kind: 'time', interval: name === 'time' ? null : (name.slice(5) as Interval) };
  return undefined;
}

export function canonicalDimension(name: string): string {
  return Object.hasOwn(DIMENSION_ALIASES, name) ? DIMENSION_ALIASES[name]! : name;
}

/** Every dimension name a request may use, for error messages. */
export function dimensionChoices(): string {
  return [...Object.keys(DIMENSIONS), 'event:goal', 'event:props:<name>', ...TIME_DIMENSIONS, ...Object.keys(DIMENSION_ALIASES)].join(', ');
}

export const FILTER_OPERATORS = ['is', 'is_not', 'contains', 'contains_not', 'matches', 'matches_not'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];
