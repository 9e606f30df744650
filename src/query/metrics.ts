import { METRIC_DESCRIPTIONS, type MetricDescription } from '../contracts/metrics.js';
import { columnLeaf } from './columnConditions.js';
import { conversionDenominatorFilters, type FilterLeaf, isVisitColumn, selectsVisits, withoutTopLevel } from './filterTrees.js';
import type { BuiltinMetric, Column, CompileContext, FilterTree, ImportedTotal, MetricSpec, PropAggregate, ResolvedQuery, RevenuePlan, Side } from './model.js';

/**
 * The metric registry: one entry per built-in metric holding every fact the engine knows of it,
 * its SQL included (raw and roll-up forms side by side). Lists of metrics (METRICS,
 * REVENUE_METRICS, the importable ones) are derived from it, never kept apart. The compiler
 * (src/query/sql/compile.ts) owns the sides, joins and rendering; an entry only says what it reads
 * from which side. The shape follows Plausible's one clause per metric
 * (lib/plausible/stats/sql/expression.ex) and its table decider (table_decider.ex).
 */

/**
 * How a metric is merged with imported data (src/query/plan/importedPlan.ts decides when it can be).
 * Counts add up (`total`: the imported total added). Rates are re-weighted: their numerator and
 * denominator totals are added on both sides and divided after the merge (as the reference
 * weighs bounce rate, visit duration and views per visit by visits, time on page and scroll
 * depth by the visits that measured them). Shares (percentage, conversion rates) add the group's
 * imported visitors to their numerator and the imported visitors of their whole to their
 * denominator; `whole` says which visitors a conversion rate divides by, null for all of the
 * query's visitors (read from the same table as its groups).
 */
export type ImportedMerge =
  | { kind: 'count'; total: ImportedTotal }
  | { kind: 'ratio'; numerator: ImportedTotal; denominator: ImportedTotal }
  | { kind: 'share'; whole: ((q: ResolvedQuery) => Whole) | null };

/** The visitors a share divides by: those under `filters`, grouped by `dimensions` (indices into the query's). */
export interface Whole {
  dimensions: number[];
  filters: FilterTree[];
}

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
 *   rate), or points to one decimal (conversion and exit rates); a built-in metric's comes from
 *   its description (src/contracts/metrics.ts), shared with every client;
 * - `revenue`: read from revenue goals, in their currency;
 * - `rate`: a rate of two figures, and how it rounds;
 * - `imported`: how it merges with imported data (none: imported data cannot answer it);
 * - `engagement`: it reads engagement rows on the events side (other counts there then leave
 *   them out);
 * - `smeared`: read from visits in hour or minute buckets, a visit counts in every bucket it was
 *   active in, as the reference counts visitors and visits (visit metrics stay in the bucket the
 *   visit ended in);
 * - `refuses`: the reference's rules on the dimensions and filters it goes with — the sentence
 *   refusing a query (the reference's wording leads, clients match on it; our reason follows);
 * - `refusesEventMetrics`: it is read by a visit dimension of its own against events it reads
 *   itself, so event metrics beside it are refused in these words rather than by the rule that
 *   visit dimensions refuse event metrics and dimensions (src/query/plan/resolve.ts);
 * - `v1`: how the v1 API (src/query/request/v1.ts, src/api/routes/statsV1.ts) treats it, where it
 *   differs from v2: `refuses` as above, in the reference's v1 words, on v1's one breakdown
 *   property and its filters; `visitMetric`: one of the reference's v1 session metrics, refused
 *   beside event-only filters and breakdowns; `visitCounts`: in breakdowns by entry or exit page,
 *   read from the visits' own counts; `perGroup`: the metric v1 answers with in a timeseries
 *   bucket or a breakdown group (its conversion rate is the group's own).
 */
export interface MetricFacts {
  scope: 'event' | 'session' | 'either';
  additive: boolean;
  empty: 0 | null;
  change: MetricDescription['change'];
  revenue?: true;
  rate?: Rate;
  imported?: ImportedMerge;
  engagement?: true;
  smeared?: true;
  refuses?: (use: MetricUse, name: string) => string | undefined;
  refusesEventMetrics?: (eventMetrics: string[]) => string;
  v1?: { refuses?: (use: V1Use) => string | undefined; visitMetric?: true; visitCounts?: true; perGroup?: string };
}

/** What a metric is queried with: the dimensions, and the filter leaves on each row (those inside has_done and has_not_done aside). */
export interface MetricUse {
  dimensions: string[];
  filters: { dimension: string; topLevel: boolean }[];
}

/** What a v1 metric is queried with: the breakdown property (canonical; null for aggregates and timeseries), and the dimensions of its filters. */
export interface V1Use {
  dimension: string | null;
  filters: string[];
}

const withGoal = (use: MetricUse) => use.dimensions.includes('event:goal') || use.filters.some((leaf) => leaf.dimension === 'event:goal');
/** Time on page and scroll depth are measured per page: a page dimension, or a top-level page filter. */
const withPage = (use: MetricUse) => use.dimensions.includes('event:page') || use.filters.some((leaf) => leaf.dimension === 'event:page' && leaf.topLevel);

const needsGoal = (use: MetricUse, name: string) =>
  withGoal(use) ? undefined : `Metric \`${name}\` can only be queried with event:goal filters or dimensions: it is the share of visitors who completed a goal.`;
const needsPage = (use: MetricUse, name: string) =>
  withPage(use)
    ? undefined
    : `Metric \`${name}\` can only be queried with event:page filters or dimensions (an event:page dimension or a top-level event:page filter): it is measured per page.`;

/** A metric's facts and its SQL: the expression of the result row, its aggregates placed on the query's sides. */
export interface Metric extends MetricFacts {
  sql: (b: MetricSql) => string;
}

/**
 * What a metric's SQL is written with; the compiler makes one per metric of a query. An
 * aggregate has a raw form and a roll-up form (null: a roll-up cannot answer it, so its side is
 * read raw, src/query/rollupReads/).
 */
export interface MetricSql {
  ctx: CompileContext;
  /** The metric's position in the query. */
  index: number;
  /** The side holding the result rows, the events side and the visits side (one of them is `main`, or a copy of it). */
  main: Side;
  events: Side;
  sessions: Side;
  /** The result rows are visits (src/query/sql/compile.ts planTables). */
  onSessions: boolean;
  /** Which read events rows count as visits and events: '1' for all, or a condition leaving out engagement rows read for another metric. */
  countable: string;
  revenue: RevenuePlan | null;
  /** A further side, by default grouped by every dimension under the query's filters. */
  side(table: Side['table'], parts?: Partial<Side>): Side;
  /** An aggregate on a side; the reference to it in the result row. */
  col(side: Side, name: string, raw: string, rollup: string | null): string;
  /** A count or sum, scaled up by the inverse rate when sampled. */
  scale(sql: string): string;
  /** A figure of a side joined to the result rows: groups the side lacks read `fallback`. */
  orDefault(side: Side, ref: string, fallback: string): string;
  /** This metric as its `rate` of two aggregates on one side. */
  ratio(side: Side, numerator: Column, denominator: Column): string;
  /** This metric as its `rate` of two figures, the denominator read from a side of its own (`whole`). */
  share(numerator: string, denominator: string, whole: Side): string;
}

/** A sum of visits: the denominator of every per-visit average. */
const VISIT_SUM: Column = { raw: 'sum(sign)', rollup: 'sum(visits)' };

/** Visitors from roll-ups: their visitor sets merged (src/query/rollupReads/ reads one-row groups' counts instead). */
export const ROLLUP_VISITORS = 'uniqMerge(visitors)';

const uniq = (b: MetricSql, column: string): string => (b.countable === '1' ? `uniq(${column})` : `uniqIf(${column}, ${b.countable})`);
/** Roll-ups hold no engagement rows: a count that must leave them out has a roll-up form only when none are read. */
const countableRollup = (b: MetricSql, rollup: string): string | null => (b.countable === '1' ? rollup : null);

/** The visitors of a side's rows: of its visits, or of the events that count. */
function visitorsOf(b: MetricSql, side: Side): string {
  if (side.table === 'sessions') return b.col(side, 'visitors', b.scale('uniq(user_id)'), ROLLUP_VISITORS);
  return b.col(side, 'visitors', b.scale(uniq(b, 'user_id')), countableRollup(b, ROLLUP_VISITORS));
}

/** The result rows' visitors: of visits when those are the rows, else of events. */
const rowVisitors = (b: MetricSql): string => visitorsOf(b, b.onSessions ? b.main : b.events);

/**
 * A revenue figure from the revenue plan's converted amounts (src/query/sql/revenue.ts); grouped by
 * goal, null for goals without revenue. Null throughout when no single currency applies.
 */
function revenueFigure(b: MetricSql, name: string, value: (amount: string) => string): string {
  const plan = b.revenue;
  if (plan?.kind !== 'converted') return 'NULL';
  b.col(b.events, 'revenue_missing', plan.missingRate, null);
  return b.col(b.events, name, plan.rowIsRevenue === null ? value(plan.amount) : `if(${plan.rowIsRevenue}, ${value(plan.amount)}, NULL)`, null);
}
const totalRevenue = (b: MetricSql): string => revenueFigure(b, 'total_revenue', (amount) => `round(ifNull(${b.scale(`sum(${amount})`)}, 0), 3)`);

/**
 * The visitors a conversion rate divides by: those without the query's goal and property
 * filters, all together or per group of its other dimensions than event:goal. The native side
 * (`conversionRate`) and the imported one (src/query/plan/importedPlan.ts) read the same.
 */
const oneWhole = (q: ResolvedQuery): Whole => ({ dimensions: [], filters: conversionDenominatorFilters(q.filters) });
const wholePerOtherGroup = (q: ResolvedQuery): Whole => ({
  dimensions: q.dimensions.flatMap((dimension, i) => (dimension === 'event:goal' ? [] : [i])),
  filters: conversionDenominatorFilters(q.filters),
});

/**
 * Visitors who reached a goal against the visitors of its whole. A whole of visit attributes is
 * counted on visits, as the visitors column beside it is (sources under a goal filter divide by
 * the sources panel's visitors), and the visits' roll-ups can answer it.
 */
function conversionRate(b: MetricSql, of: (q: ResolvedQuery) => Whole): string {
  const converted = visitorsOf(b, b.events);
  const { q } = b.ctx;
  const { dimensions, filters } = of(q);
  const onVisits = dimensions.every((i) => isVisitColumn(q.dimensions[i]!)) && filters.every(selectsVisits);
  const whole = b.side(onVisits ? 'sessions' : 'events', { dims: dimensions, filters });
  return b.share(converted, b.col(whole, 'visitors', b.scale('uniq(user_id)'), ROLLUP_VISITORS), whole);
}

/** Top-level event:page filters, which make bounces those of visits entered on the page (as the reference). */
function bounceCondition(ctx: CompileContext): string {
  const pageFilters = ctx.q.filters.filter((f): f is FilterLeaf => 'dimension' in f && f.dimension === 'event:page');
  return pageFilters.map((leaf) => columnLeaf(leaf, 'entry_page', { emptyLabel: null }, ctx)).join(' AND ') || '1';
}

/** Conversion rates: shares of visitors in percent to 2 decimals, 0 when no visitor is in the whole. */
const CONVERSION_RATE: Rate = { scaled: true, round: (n, d) => `if(ifNull(${d}, 0) > 0, round(${n} / ${d} * 100, 2), 0)` };

const BUILTIN = {
  visitors: {
    scope: 'either',
    additive: true,
    empty: 0,
    imported: { kind: 'count', total: 'visitors' },
    smeared: true,
    sql: rowVisitors,
  },
  visits: {
    scope: 'either',
    additive: true,
    empty: 0,
    imported: { kind: 'count', total: 'visits' },
    smeared: true,
    v1: { visitMetric: true },
    sql: (b) =>
      b.onSessions
        ? b.col(b.main, 'visits', b.scale('greatest(sum(sign), 0)'), 'greatest(sum(visits), 0)')
        : b.col(b.events, 'visits', b.scale(uniq(b, 'session_id')), countableRollup(b, 'uniqMerge(visits)')),
  },
  pageviews: {
    scope: 'event',
    additive: true,
    empty: 0,
    imported: { kind: 'count', total: 'pageviews' },
    v1: { visitCounts: true },
    sql: (b) =>
      b.ctx.q.visitCounts
        ? b.col(b.main, 'pageviews', b.scale('greatest(sum(sign * pageviews), 0)'), 'greatest(sum(pageviews), 0)')
        : b.col(b.events, 'pageviews', b.scale("countIf(name = 'pageview')"), 'sum(pageviews)'),
  },
  events: {
    scope: 'event',
    additive: true,
    empty: 0,
    imported: { kind: 'count', total: 'events' },
    v1: { visitCounts: true },
    sql: (b) =>
      b.ctx.q.visitCounts
        ? b.col(b.main, 'events', b.scale('greatest(sum(sign * events), 0)'), 'greatest(sum(events), 0)')
        : b.col(b.events, 'events', b.scale(b.countable === '1' ? 'count()' : `countIf(${b.countable})`), countableRollup(b, 'sum(events)')),
  },
  views_per_visit: {
    scope: 'session',
    additive: false,
    empty: 0,
    // To 2 decimals.
    rate: { scaled: false, round: (n, d) => `greatest(ifNotFinite(round(${n} / ${d}, 2), 0), 0)` },
    imported: { kind: 'ratio', numerator: 'pageviews', denominator: 'visits' },
    refuses: (use) =>
      use.filters.some((leaf) => leaf.dimension === 'event:page')
        ? 'Metric `views_per_visit` cannot be queried with a filter on `event:page`: it counts every page of a visit.'
        : undefined,
    v1: {
      visitMetric: true,
      refuses: (use) => {
        if (use.filters.includes('event:page')) return 'Metric `views_per_visit` cannot be queried with a filter on `event:page`.';
        if (use.dimension !== null) return 'Metric `views_per_visit` is not supported in breakdown queries.';
        return undefined;
      },
    },
    sql: (b) => b.orDefault(b.sessions, b.ratio(b.sessions, { raw: 'sum(sign * pageviews)', rollup: 'sum(pageviews)' }, VISIT_SUM), '0'),
  },
  percentage: {
    scope: 'either',
    additive: false,
    empty: 0,
    // The group's share of all visitors in percent to 2 decimals; null when there are none.
    rate: { scaled: true, round: (n, d) => `if(ifNull(${d}, 0) > 0, round(${n} / ${d} * 100, 2), NULL)` },
    imported: { kind: 'share', whole: null },
    sql: (b) => {
      // The group's visitors against all visitors under the same filters, from the same table.
      const group = rowVisitors(b);
      const all: Side = { ...(b.onSessions ? b.sessions : b.events), dims: [], columns: new Map() };
      return b.share(group, visitorsOf(b, all), all);
    },
  },
  bounce_rate: {
    scope: 'session',
    additive: false,
    empty: 0,
    // In whole percent.
    rate: { scaled: false, round: (n, d) => `toUInt32(greatest(ifNotFinite(round(${n} / ${d} * 100), 0), 0))` },
    imported: { kind: 'ratio', numerator: 'bounces', denominator: 'visits' },
    v1: { visitMetric: true },
    sql: (b) => {
      // Page filters make bounces those of visits entered on the page, which roll-ups do not keep.
      const condition = bounceCondition(b.ctx);
      const whole = condition === '1';
      const bounces = { raw: `sumIf(is_bounce * sign, ${condition})`, rollup: whole ? 'sum(bounces)' : null };
      return b.orDefault(b.sessions, b.ratio(b.sessions, bounces, { raw: `sumIf(sign, ${condition})`, rollup: whole ? 'sum(visits)' : null }), '0');
    },
  },
  visit_duration: {
    scope: 'session',
    additive: false,
    empty: null,
    // In whole seconds.
    rate: { scaled: false, round: (n, d) => `toUInt32(greatest(ifNotFinite(round(${n} / ${d}), 0), 0))` },
    imported: { kind: 'ratio', numerator: 'visit_duration', denominator: 'visits' },
    v1: { visitMetric: true },
    sql: (b) => b.ratio(b.sessions, { raw: 'sum(duration * sign)', rollup: 'sum(duration)' }, VISIT_SUM),
  },
  time_on_page: {
    scope: 'event',
    additive: false,
    empty: null,
    // In whole seconds; null when no visit engaged.
    rate: { scaled: false, round: (n, d) => `if(ifNull(${d}, 0) > 0, toInt32(round(${n} / ${d})), NULL)` },
    imported: { kind: 'ratio', numerator: 'time_on_page', denominator: 'time_on_page_visits' },
    engagement: true,
    refuses: needsPage,
    v1: {
      refuses: (use) => {
        if (use.filters.includes('event:goal')) return 'Metric `time_on_page` cannot be queried when filtering by `event:goal`';
        if (use.filters.includes('event:name')) return 'Metric `time_on_page` cannot be queried when filtering by `event:name`';
        if (use.dimension !== null && use.dimension !== 'event:page')
          return 'Metric `time_on_page` is not supported in breakdown queries (except `event:page` breakdown)';
        if (use.dimension === null && !use.filters.includes('event:page'))
          return 'Metric `time_on_page` can only be queried in a page breakdown or with a page filter.';
        return undefined;
      },
    },
    sql: (b) =>
      b.ratio(
        b.events,
        { raw: "sumIf(engagement_time, name = 'engagement') / 1000", rollup: null },
        { raw: "uniqIf(session_id, name = 'engagement')", rollup: null },
      ),
  },
  scroll_depth: {
    scope: 'event',
    additive: false,
    empty: null,
    // In whole percent; null when nothing was measured.
    rate: { scaled: false, round: (n, d) => `if(ifNull(${d}, 0) > 0, toUInt8(round(${n} / ${d})), NULL)` },
    imported: { kind: 'ratio', numerator: 'scroll_depth', denominator: 'scroll_depth_visits' },
    refuses: needsPage,
    sql: (b) => {
      const extra = [
        { sql: "name = 'engagement'", columns: null },
        { sql: 'scroll_depth <= 100', columns: null },
      ];
      const scroll = b.side('events', { engagement: true, extra, perVisitMax: true });
      // The average of each visit's deepest scroll; no engagement in the range is "not measured" (null).
      return b.ratio(scroll, { raw: 'sum(max_scroll_depth)', rollup: null }, { raw: 'count()', rollup: null });
    },
  },
  exit_rate: {
    scope: 'session',
    additive: false,
    empty: null,
    refuses: (use) => {
      if (use.dimensions.length !== 1 || use.dimensions[0] !== 'visit:exit_page')
        return 'Metric exit_rate needs exactly the dimension visit:exit_page and no other.';
      if (use.filters.some((leaf) => leaf.dimension.startsWith('event:'))) return 'Metric exit_rate cannot be queried with filters on event dimensions.';
      return undefined;
    },
    refusesEventMetrics: (eventMetrics) => `Metric exit_rate cannot be queried together with ${eventMetrics.join(', ')}.`,
    sql: (b) => {
      // Visits that ended on a page against the pageviews of that page, in percent to 1 decimal.
      const exits = b.col(b.sessions, 'exits', 'greatest(sum(sign), 0)', 'greatest(sum(visits), 0)');
      const filters = withoutTopLevel(b.ctx.q.filters, (d) => d === 'visit:exit_page');
      const pageviews = b.col(b.side('events', { exitPageAsPath: true, filters }), 'pageviews', "countIf(name = 'pageview')", 'sum(pageviews)');
      return `if(ifNull(${pageviews}, 0) > 0, round(${exits} / ${pageviews} * 100, 1), NULL)`;
    },
  },
  conversion_rate: {
    scope: 'event',
    additive: false,
    empty: 0,
    rate: CONVERSION_RATE,
    imported: { kind: 'share', whole: oneWhole },
    refuses: needsGoal,
    v1: {
      refuses: (use) =>
        use.dimension !== 'event:goal' && !use.filters.includes('event:goal')
          ? 'Metric `conversion_rate` can only be queried in a goal breakdown or with a goal filter'
          : undefined,
      perGroup: 'group_conversion_rate',
    },
    sql: (b) => conversionRate(b, oneWhole),
  },
  group_conversion_rate: {
    scope: 'event',
    additive: false,
    empty: 0,
    rate: CONVERSION_RATE,
    imported: { kind: 'share', whole: wholePerOtherGroup },
    refuses: needsGoal,
    sql: (b) => conversionRate(b, wholePerOtherGroup),
  },
  total_revenue: { scope: 'event', additive: true, empty: 0, revenue: true, sql: totalRevenue },
  average_revenue: {
    scope: 'event',
    additive: false,
    empty: null,
    revenue: true,
    sql: (b) => revenueFigure(b, 'average_revenue', (amount) => `round(avg(${amount}), 3)`),
  },
  revenue_per_visitor: {
    scope: 'event',
    additive: false,
    empty: null,
    revenue: true,
    sql: (b) => {
      const total = totalRevenue(b);
      return total === 'NULL' ? 'NULL' : `if(${visitorsOf(b, b.events)} > 0, round(${total} / ${visitorsOf(b, b.events)}, 3), NULL)`;
    },
  },
} satisfies Record<BuiltinMetric, Omit<Metric, 'change'>>;

// Each entry takes its change kind from the metric descriptions the web app and the assistant tools
// read too; the names are the same union (src/query/model.ts BuiltinMetric), so the lookup is checked.
const REGISTRY = Object.fromEntries(
  Object.entries(BUILTIN).map(([name, metric]) => [name, { ...metric, change: METRIC_DESCRIPTIONS[name as BuiltinMetric].change }]),
) as Record<BuiltinMetric, Metric>;
export const METRICS = Object.keys(REGISTRY) as BuiltinMetric[];

const isBuiltin = (metric: string): metric is BuiltinMetric => Object.hasOwn(REGISTRY, metric);

/** Aggregates of a numeric custom property: event metrics, null over nothing, additive when sums. */
const propFacts = (additive: boolean): MetricFacts => ({ scope: 'event', additive, empty: null, change: 'percent' });

/** A metric's facts, by its name in a request. */
export function metricFacts(metric: string): MetricFacts {
  return isBuiltin(metric) ? REGISTRY[metric] : propFacts(/^sum\(/.test(metric));
}

export const PROP_AGGREGATES: readonly PropAggregate[] = ['sum', 'avg', 'min', 'max'];

const PROP_METRIC = /^(sum|avg|min|max|p([5-9][0-9]))\(event:props:(.+)\)$/;

export function parseMetric(text: string): MetricSpec | undefined {
  if (isBuiltin(text)) return { kind: 'builtin', name: text };
  const match = PROP_METRIC.exec(text);
  if (!match) return undefined;
  const [, fn = '', percentile, prop = ''] = match;
  if (percentile !== undefined) return { kind: 'prop', fn: 'quantile', quantile: Number(percentile) / 100, prop };
  return { kind: 'prop', fn: fn as PropAggregate, quantile: 0, prop };
}

/** A metric's entry; an aggregate of a numeric custom property is read from the events side. */
export function metricOf(spec: MetricSpec): Metric {
  if (spec.kind === 'builtin') return REGISTRY[spec.name];
  return {
    ...propFacts(spec.fn === 'sum'),
    sql: (b) => {
      const value = `toFloat64OrNull(props[${b.ctx.params.string(spec.prop)}])`;
      const aggregate = spec.fn === 'quantile' ? `quantileExactInclusive(${spec.quantile})(${value})` : `${spec.fn}(${value})`;
      return b.col(b.events, `prop_${b.index}`, spec.fn === 'sum' ? b.scale(aggregate) : aggregate, null);
    },
  };
}

/** Metrics that are counts or sums, so a sample is scaled up by the inverse rate. */
export const isAdditive = (spec: MetricSpec): boolean => metricOf(spec).additive;

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
