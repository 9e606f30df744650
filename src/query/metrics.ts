import type { ImportedTotal } from './importedPlan.js';

/**
 * The metric registry: one entry per built-in metric holding every fact the engine knows of it.
 * Lists of metrics (METRICS, REVENUE_METRICS, the importable ones) are derived from it, never
 * kept apart. The shape follows Plausible's one clause per metric
 * (lib/plausible/stats/sql/expression.ex) and its table decider (table_decider.ex).
 */

/**
 * How a metric is merged with imported data (src/query/importedPlan.ts decides when it can be).
 * Counts add up (`total`: the imported total added). Rates are re-weighted: their numerator and
 * denominator totals are added on both sides and divided after the merge (as the reference
 * weighs bounce rate, visit duration and views per visit by visits, time on page and scroll
 * depth by the visits that measured them). Shares (percentage, conversion rates) add the group's
 * imported visitors to their numerator and the imported visitors of their whole to their
 * denominator.
 */
export type ImportedMerge =
  | { kind: 'count'; total: ImportedTotal }
  | { kind: 'ratio'; numerator: ImportedTotal; denominator: ImportedTotal }
  | { kind: 'share' };

/**
 * A rate as the reference rounds it, from the SQL of its numerator and denominator. `scaled`:
 * whether the native numerator and denominator are already scaled up from a sample (visitor
 * counts are; visit sums are read raw), for the merge with imported totals.
 */
export interface Rate {
  scaled: boolean;
  round: (numerator: string, denominator: string) => string;
}

/**
 * What the engine knows of a metric:
 * - `scope`: the rows it needs — events, visits, or either (Plausible's table decider);
 * - `additive`: a count or sum, scaled up by the inverse rate when sampled;
 * - `empty`: what it reads when nothing happened — zero, or null for averages of nothing;
 * - `change`: how a comparison reports it — a whole percentage, percentage points (bounce
 *   rate), or points to one decimal (conversion and exit rates);
 * - `revenue`: read from revenue goals, in their currency;
 * - `rate`: a rate of two figures, and how it rounds;
 * - `imported`: how it merges with imported data (none: imported data cannot answer it).
 */
export interface MetricFacts {
  scope: 'event' | 'session' | 'either';
  additive: boolean;
  empty: 0 | null;
  change: 'percent' | 'points' | 'points1';
  revenue?: true;
  rate?: Rate;
  imported?: ImportedMerge;
}

/** Conversion rates: shares of visitors in percent to 2 decimals, 0 when no visitor is in the whole. */
const CONVERSION_RATE: Rate = { scaled: true, round: (n, d) => `if(ifNull(${d}, 0) > 0, round(${n} / ${d} * 100, 2), 0)` };

const BUILTIN = {
  visitors: { scope: 'either', additive: true, empty: 0, change: 'percent', imported: { kind: 'count', total: 'visitors' } },
  visits: { scope: 'either', additive: true, empty: 0, change: 'percent', imported: { kind: 'count', total: 'visits' } },
  pageviews: { scope: 'event', additive: true, empty: 0, change: 'percent', imported: { kind: 'count', total: 'pageviews' } },
  events: { scope: 'event', additive: true, empty: 0, change: 'percent', imported: { kind: 'count', total: 'events' } },
  views_per_visit: {
    scope: 'session',
    additive: false,
    empty: 0,
    change: 'percent',
    // To 2 decimals.
    rate: { scaled: false, round: (n, d) => `greatest(ifNotFinite(round(${n} / ${d}, 2), 0), 0)` },
    imported: { kind: 'ratio', numerator: 'pageviews', denominator: 'visits' },
  },
  percentage: {
    scope: 'either',
    additive: false,
    empty: 0,
    change: 'percent',
    // The group's share of all visitors in percent to 2 decimals; null when there are none.
    rate: { scaled: true, round: (n, d) => `if(ifNull(${d}, 0) > 0, round(${n} / ${d} * 100, 2), NULL)` },
    imported: { kind: 'share' },
  },
  bounce_rate: {
    scope: 'session',
    additive: false,
    empty: 0,
    change: 'points',
    // In whole percent.
    rate: { scaled: false, round: (n, d) => `toUInt32(greatest(ifNotFinite(round(${n} / ${d} * 100), 0), 0))` },
    imported: { kind: 'ratio', numerator: 'bounces', denominator: 'visits' },
  },
  visit_duration: {
    scope: 'session',
    additive: false,
    empty: null,
    change: 'percent',
    // In whole seconds.
    rate: { scaled: false, round: (n, d) => `toUInt32(greatest(ifNotFinite(round(${n} / ${d}), 0), 0))` },
    imported: { kind: 'ratio', numerator: 'visit_duration', denominator: 'visits' },
  },
  time_on_page: {
    scope: 'event',
    additive: false,
    empty: null,
    change: 'percent',
    // In whole seconds; null when no visit engaged.
    rate: { scaled: false, round: (n, d) => `if(ifNull(${d}, 0) > 0, toInt32(round(${n} / ${d})), NULL)` },
    imported: { kind: 'ratio', numerator: 'time_on_page', denominator: 'time_on_page_visits' },
  },
  scroll_depth: {
    scope: 'event',
    additive: false,
    empty: null,
    change: 'percent',
    // In whole percent; null when nothing was measured.
    rate: { scaled: false, round: (n, d) => `if(ifNull(${d}, 0) > 0, toUInt8(round(${n} / ${d})), NULL)` },
    imported: { kind: 'ratio', numerator: 'scroll_depth', denominator: 'scroll_depth_visits' },
  },
  exit_rate: { scope: 'session', additive: false, empty: null, change: 'points1' },
  conversion_rate: { scope: 'event', additive: false, empty: 0, change: 'points1', rate: CONVERSION_RATE, imported: { kind: 'share' } },
  group_conversion_rate: { scope: 'event', additive: false, empty: 0, change: 'points1', rate: CONVERSION_RATE, imported: { kind: 'share' } },
  total_revenue: { scope: 'event', additive: true, empty: 0, change: 'percent', revenue: true },
  average_revenue: { scope: 'event', additive: false, empty: null, change: 'percent', revenue: true },
  revenue_per_visitor: { scope: 'event', additive: false, empty: null, change: 'percent', revenue: true },
} satisfies Record<string, MetricFacts>;

export type BuiltinMetric = keyof typeof BUILTIN;
const REGISTRY: Record<BuiltinMetric, MetricFacts> = BUILTIN;
export const METRICS = Object.keys(REGISTRY) as BuiltinMetric[];

const isBuiltin = (metric: string): metric is BuiltinMetric => Object.hasOwn(REGISTRY, metric);

/** A metric's facts; custom-property aggregates are event metrics, empty as null, additive when sums. */
export function metricFacts(metric: string): MetricFacts {
  return isBuiltin(metric) ? REGISTRY[metric] : { scope: 'event', additive: /^sum\(/.test(metric), empty: null, change: 'percent' };
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
  return spec.kind === 'prop' ? 'event' : REGISTRY[spec.name].scope;
}

/** Metrics that are counts or sums, so a sample is scaled up by the inverse rate. */
export function isAdditive(spec: MetricSpec): boolean {
  return spec.kind === 'prop' ? spec.fn === 'sum' : REGISTRY[spec.name].additive;
}

export const REVENUE_METRICS: readonly string[] = METRICS.filter((metric) => REGISTRY[metric].revenue);

/** Metrics imported data can answer. */
export const isImportableMetric = (metric: string): boolean => metricFacts(metric).imported !== undefined;

/** The imported totals a metric is rebuilt from (none when imported data cannot answer it). */
export function totalsOf(metric: string): ImportedTotal[] {
  const merge = metricFacts(metric).imported;
  if (merge === undefined) return [];
  if (merge.kind === 'count') return [merge.total];
  return merge.kind === 'ratio' ? [merge.numerator, merge.denominator] : ['visitors'];
}
