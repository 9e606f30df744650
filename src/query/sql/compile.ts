import { dimensionKind } from '../catalog.js';
import type { ExchangeRates } from '../exchangeRates.js';
import { GOAL_COLUMNS, goalCondition, goalDimensionGoals, isScrollGoal } from '../goals.js';
import { type MetricFacts, metricFacts, metricOf } from '../metrics.js';
import type { CompileContext, GroupSet, MetricSpec, RangeRollups, ResolvedQuery, RevenuePlan, RolledSide, Side } from '../model.js';
import type { ImportedSource } from '../plan/importedPlan.js';
import { filterLeaves, isSessionDimension, metricTable } from '../plan/resolve.js';
import { dayBucket, dimensionLabel, goalKey, SESSION_DIMENSION_SUBSTITUTES } from './dimensionSql.js';
import { filtersCondition, isVisitSetTest, usesScrollGoals } from './filters.js';
import { importedSubquery, importedTotals } from './importedSql.js';
import { planRevenue } from './revenue.js';
import { and, eventsBase, fromTable, sessionsBase } from './tables.js';

/**
 * A resolved query compiled to one ClickHouse statement. Each "side" is a grouped subquery on
 * one table (events, sessions, or a helper such as the conversion-rate denominator); the first
 * side holds the result rows and the others are joined to it on the dimension values.
 */

export type Plan = 'events' | 'sessions' | 'split';

export interface CompiledQuery {
  sql: string;
  params: Record<string, unknown>;
  plan: Plan;
  revenue: RevenuePlan | null;
  /** Where the rows came from: `rollup`, `raw`, or both (raw days after the roll-ups, or some sides read raw). */
  sources: ('rollup' | 'raw')[];
  /** The first instant raw rows are read from, null when none are (src/query/rollupReads/rawHorizon.ts). */
  rawFrom: number | null;
}

/** Which table answers the query, following the reference's table decider. */
export function planTables(q: ResolvedQuery): Plan {
  const scopes = q.specs.map((spec) => metricTable(spec, q.visitCounts));
  const eventMetrics = scopes.includes('event');
  const sessionMetrics = scopes.includes('session');
  const eventDims = q.dimensions.some((d) => d.startsWith('event:'));
  const sessionDims = q.dimensions.some(isSessionDimension);
  const eventFilters = filterLeaves(q.filters).some((leaf) => !leaf.behavioral && leaf.dimension.startsWith('event:'));
  if (!eventMetrics && !eventDims && !eventFilters) return 'sessions';
  if (!sessionMetrics && !sessionDims) return 'events';
  if (!eventMetrics && !eventDims) return 'sessions';
  return 'split';
}

/** What a query is prepared with besides itself and its range. */
export interface PrepareOptions {
  rates: ExchangeRates;
  imported?: ImportedSource;
  /** How the roll-ups answer the range's sides; none: every side is read raw. */
  rollups?: RangeRollups | null;
}

/** What one statement of a prepared query is asked: a page or every group, and the groups it is restricted to. */
export interface StatementOptions {
  paginate: boolean;
  restrictTo?: string[][];
  /** Read only these groups from roll-ups (src/query/rollupReads/leadingGroups.ts). */
  among?: GroupSet;
}

export type CompileOptions = PrepareOptions & StatementOptions;

/**
 * A query over one range with its sides placed and the source of each chosen, once; each read
 * of the range (its page, a comparison restricted to the page's groups, a ranking, the leading
 * groups) renders its statement from it.
 */
export interface PreparedQuery {
  /** Whether the roll-ups answer every side. */
  readonly rolledUp: boolean;
  statement(options: StatementOptions): CompiledQuery;
  /** The result rows' groups ranked by their summed visitor bounds, `count` + 1 of them; null unless every side is rolled up and ranking is needed. */
  ranking(count: number): CompiledQuery | null;
}

export function prepareQuery(ctx: CompileContext, options: PrepareOptions): PreparedQuery {
  const { q } = ctx;
  const plan = planTables(q);
  const placed = placeMetrics(ctx, plan, options.rates);
  const reading = chooseSource(ctx, placed.sides, options.rollups);
  const { revenue } = placed;
  const { sources, rawFrom } = reading;
  // Every statement numbers its own parameters on from those placing the metrics took.
  const own = (): CompileContext => ({ ...ctx, params: ctx.params.copy() });
  const compiled = (at: CompileContext, sql: string): CompiledQuery => ({ sql, params: at.params.values, plan, revenue, sources, rawFrom });
  return {
    rolledUp: reading.main !== null,
    statement(statement) {
      const at = own();
      const imported = options.imported;
      return compiled(at, imported ? mergedStatement(at, placed, reading, imported, statement) : nativeStatement(at, placed, reading, statement));
    },
    ranking(count) {
      if (reading.main === null) return null;
      const at = own();
      const sql = reading.main.ranking(at, count);
      return sql === null ? null : compiled(at, sql);
    },
  };
}

/** One statement of a query over one range. */
export const compileQuery = (ctx: CompileContext, options: CompileOptions): CompiledQuery => prepareQuery(ctx, options).statement(options);

/** The sides of a query with every metric's aggregates placed on them, and each metric's expression of the result row. */
interface PlacedMetrics {
  /** Every side read, the one holding the result rows first. */
  sides: Side[];
  main: Side;
  revenue: RevenuePlan | null;
  /** Per metric, its expression of the result row. */
  expressions: string[];
  /** The reference to the result row's count of rows, and to its count of revenue events without a rate. */
  rows: string;
  revenueMissing: string;
  /**
   * The numerator and denominator of each rate, kept so imported totals can be added to them. A
   * share's denominator comes from a side of its own (`whole`), which the merge reads apart.
   */
  ratioParts: Map<string, { numerator: string; denominator: string; whole?: Side }>;
}

/** Places every metric's aggregates on the query's sides (src/query/metrics.ts MetricSql says how). */
function placeMetrics(ctx: CompileContext, plan: Plan, rates: ExchangeRates): PlacedMetrics {
  const { q, params } = ctx;
  const facts = q.metrics.map(metricFacts);
  const scrollGoals = q.filters.some((f) => usesScrollGoals(f, ctx)) || goalDimensionGoals(q).some(isScrollGoal);
  const engagement = facts.some((f) => f.engagement) || scrollGoals;
  // Which rows count as visits and events: the WHERE clause already drops engagement unless a
  // metric or scroll goal needs those rows, and scroll goals are reached by engagement itself.
  const countable = engagement && !scrollGoals ? "name != 'engagement'" : '1';
  const { events, sessions, main } = baseSides(ctx, plan, facts, engagement);
  const sides: Side[] = [main];
  const use = (side: Side) => {
    if (!sides.includes(side)) sides.push(side);
    return sides.indexOf(side);
  };
  const col = (side: Side, name: string, raw: string, rollup: string | null) => {
    side.columns.set(name, { raw, rollup });
    return `c${use(side)}_${name}`;
  };
  const revenue = facts.some((f) => f.revenue) ? planRevenue(q, params, rates, goalColumn(q)) : null;
  const ratioParts: PlacedMetrics['ratioParts'] = new Map();
  const metricSql = (spec: MetricSpec, index: number): string => {
    const metric = metricOf(spec);
    const name = q.metrics[index]!;
    const share = (numerator: string, denominator: string, whole?: Side) => {
      ratioParts.set(name, { numerator, denominator, whole });
      return metric.rate!.round(numerator, denominator);
    };
    return metric.sql({
      ctx,
      index,
      main,
      events,
      sessions,
      onSessions: plan === 'sessions',
      countable,
      revenue,
      side: (table, parts) => ({ table, dims: main.dims, columns: new Map(), engagement: false, filters: q.filters, extra: [], ...parts }),
      col,
      scale: (sql) => (ctx.sampleRate === null ? sql : `round(${sql} * ${1 / ctx.sampleRate})`),
      orDefault: (side, ref, fallback) => (side === main ? ref : `ifNull(${ref}, ${fallback})`),
      ratio: (side, numerator, denominator) => {
        const parts = {
          numerator: col(side, `${name}_num`, numerator.raw, numerator.rollup),
          denominator: col(side, `${name}_den`, denominator.raw, denominator.rollup),
        };
        const value = share(parts.numerator, parts.denominator);
        // A group the joined side lacks has no visits: null, not the 0 the rounding would make of it.
        return side === main ? value : `if(isNull(${parts.denominator}), NULL, ${value})`;
      },
      share,
    });
  };
  const expressions = q.specs.map(metricSql);
  const rows = col(main, 'rows', 'count()', 'count()');
  const revenueMissing = events.columns.has('revenue_missing') ? `c${sides.indexOf(events)}_revenue_missing` : '0';
  return { sides, main, revenue, expressions, rows, revenueMissing, ratioParts };
}

/** The events side, the visits side, and the side holding the result rows (one of them, or a copy of the visits side). */
function baseSides(ctx: CompileContext, plan: Plan, facts: MetricFacts[], engagement: boolean): { events: Side; sessions: Side; main: Side } {
  const { q, params } = ctx;
  const allDims = q.dimensions.map((_, i) => i);
  const events: Side = { table: 'events', dims: allDims, columns: new Map(), engagement, filters: q.filters, extra: [] };
  // A goal breakdown array-joins each row with the goals it reached: rows that reached none add
  // nothing, so they are left out before the join instead of being expanded into empty arrays.
  const breakdownGoals = goalDimensionGoals(q);
  if (breakdownGoals.length > 0) {
    const sql = `(${breakdownGoals.map((goal) => goalCondition(goal, params)).join(' OR ')})`;
    events.extra.push({ sql, columns: breakdownGoals.some(isScrollGoal) ? null : GOAL_COLUMNS });
  }
  const sessions: Side = { table: 'sessions', dims: allDims, columns: new Map(), engagement: false, filters: q.filters, extra: [] };
  // Metrics that count a visit in every hour (or minute) bucket it was active in (src/query/metrics.ts)
  // read from a copy of the visits side of their own.
  const smeared =
    plan === 'sessions' &&
    q.dimensions.some((d) => d === 'time:hour' || d === 'time:minute') &&
    facts.some((f) => f.smeared) &&
    !filterLeaves(q.filters).some((leaf) => leaf.dimension === 'event:goal');
  const main = smeared ? { ...sessions, columns: new Map(), smeared } : plan === 'sessions' ? sessions : events;
  return { events, sessions, main };
}

/** Where the sides are read from, and each side's subquery in a statement. */
interface Reading {
  render: (side: Side, ctx: CompileContext, among?: GroupSet) => string;
  sources: CompiledQuery['sources'];
  rawFrom: number | null;
  /** When the roll-ups answer every side: the side holding the result rows, as they read it. */
  main: RolledSide | null;
}

/**
 * Each side from roll-ups where they answer it, else raw; each side is asked once. Roll-ups count
 * exactly what raw rows count (test/query/rollups.test.ts), so one figure's parts may come from
 * both: a conversion rate under a goal filter reads its converted visitors raw and its whole from
 * the roll-ups.
 */
function chooseSource(ctx: CompileContext, sides: Side[], rollups: RangeRollups | null | undefined): Reading {
  const rolled = sides.map((side) => rollups?.side(side, ctx) ?? null);
  const raw = (side: Side, at: CompileContext) => sideSql(side, sides.indexOf(side), at);
  if (!rollups || rolled.every((side) => side === null)) return { render: raw, sources: ['raw'], rawFrom: ctx.range.first, main: null };
  const render = (side: Side, at: CompileContext, among?: GroupSet) => {
    const index = sides.indexOf(side);
    return rolled[index]?.sql(at, index, among) ?? raw(side, at);
  };
  if (rolled.some((side) => side === null)) return { render, sources: ['rollup', 'raw'], rawFrom: ctx.range.first, main: null };
  const after = rollups.rawFrom;
  return { render, sources: after === null ? ['rollup'] : ['rollup', 'raw'], rawFrom: after, main: rolled[0]! };
}

/** The sides' subqueries, the first holding the result rows and the others joined to it on the dimensions they group by. */
function joinedSides(ctx: CompileContext, sides: Side[], reading: Reading, among: GroupSet | undefined): string {
  return sides
    .map((side, index) => {
      const subquery = `(${reading.render(side, ctx, among)}) AS s${index}`;
      if (index === 0) return subquery;
      const using = side.dims.map((i) => `k${i}`);
      return using.length ? `LEFT JOIN ${subquery} USING (${using.join(', ')})` : `CROSS JOIN ${subquery}`;
    })
    .join('\n');
}

/** What every final statement ends with: the groups kept (`restrictTo`), their order, the page, and the count of every group. */
function resultClauses(ctx: CompileContext, options: StatementOptions) {
  const { q, params } = ctx;
  const dimensionColumns = q.dimensions.map((_, i) => `d${i}`);
  const restrict = options.restrictTo ? `WHERE has(${params.add(options.restrictTo, 'Array(Array(String))')}, [${dimensionColumns.join(', ')}])` : '';
  const order = [...q.orderBy.map(([name, direction]) => `${alias(q, name)} ${direction.toUpperCase()}`), ...dimensionColumns.map((d) => `${d} ASC`)];
  // One row past the page tells the caller whether groups were cut off.
  const paging = options.paginate ? `LIMIT ${params.add(q.limit + 1, 'UInt32')} OFFSET ${params.add(q.offset, 'UInt32')}` : '';
  const totalRows = q.totalRows ? ['count() OVER () AS __total_rows'] : [];
  return { dimensionColumns, tail: `${restrict}\nORDER BY ${order.join(', ')}\n${paging}`, totalRows };
}

/** The dimension labels of the result rows, `d<i>`. */
const dimensionLabels = (ctx: CompileContext) => ctx.q.dimensions.map((dimension, i) => `${dimensionLabel(ctx, dimension, `k${i}`)} AS d${i}`);

/** The statement over native rows only. */
function nativeStatement(ctx: CompileContext, placed: PlacedMetrics, reading: Reading, options: StatementOptions): string {
  // In the order their parameters are numbered: the sides, the labels, the closing clauses.
  const from = joinedSides(ctx, placed.sides, reading, options.among);
  const labels = dimensionLabels(ctx);
  const { totalRows, tail } = resultClauses(ctx, options);
  const select = [
    ...labels,
    ...placed.expressions.map((sql, i) => `${sql} AS m${i}`),
    `${placed.rows} AS __rows`,
    `${placed.revenueMissing} AS __revenue_missing`,
    ...totalRows,
  ];
  return `SELECT ${select.join(', ')}\nFROM ${from}\n${tail}`;
}

/** The statement merging native rows with imported ones (mergedFrom). */
function mergedStatement(ctx: CompileContext, placed: PlacedMetrics, reading: Reading, source: ImportedSource, options: StatementOptions): string {
  const { q } = ctx;
  const from = joinedSides(ctx, placed.sides, reading, options.among);
  const labels = dimensionLabels(ctx);
  const { dimensionColumns, totalRows, tail } = resultClauses(ctx, options);
  const native = `SELECT ${[
    ...labels,
    ...placed.expressions.map((sql, i) => `${sql} AS n_m${i}`),
    ...q.metrics.flatMap((metric, i) => {
      const parts = placed.ratioParts.get(metric);
      return parts ? [`${parts.numerator} AS n_num${i}`, `${parts.denominator} AS n_den${i}`] : [];
    }),
    `${placed.rows} AS n_rows`,
    `${placed.revenueMissing} AS n_revenue_missing`,
  ].join(', ')}\nFROM ${from}`;
  const whole = [...placed.ratioParts.values()].find((parts) => parts.whole)?.whole;
  const nativeWhole = whole ? { dims: whole.dims, sql: reading.render(whole, ctx, options.among), visitors: `c${placed.sides.indexOf(whole)}_visitors` } : null;
  const merged = mergedFrom(ctx, native, nativeWhole, source);
  return `SELECT ${[...dimensionColumns, ...merged.metrics, ...merged.extras, ...totalRows].join(', ')}\nFROM ${merged.from}\n${tail}`;
}

/**
 * The native statement (its groups labelled `d<i>`, metrics `n_m<i>`, rate parts `n_num<i>` and
 * `n_den<i>`) joined with the imported side on the labels, and the merged metrics. A share's whole
 * is counted on each side apart from the groups and joined on too: a group only one side has is
 * still a share of both sides' visitors.
 */
function mergedFrom(
  ctx: CompileContext,
  native: string,
  nativeWhole: { dims: number[]; sql: string; visitors: string } | null,
  source: ImportedSource,
): { from: string; metrics: string[]; extras: string[] } {
  const { q } = ctx;
  const dimensionColumns = q.dimensions.map((_, i) => `d${i}`);
  const imported = importedSubquery(ctx, source.main, source.importIds, importedTotals(q.metrics), 'i');
  const joins = [dimensionColumns.length ? `FULL OUTER JOIN (${imported}) AS i USING (${dimensionColumns.join(', ')})` : `CROSS JOIN (${imported}) AS i`];
  if (source.total && nativeWhole) {
    const labels = nativeWhole.dims.map((i) => `${dimensionLabel(ctx, q.dimensions[i]!, `k${i}`)} AS d${i}`);
    const nativeSql = `SELECT ${[...labels, `${nativeWhole.visitors} AS nt_visitors`].join(', ')} FROM (${nativeWhole.sql})`;
    const importedSql = importedSubquery(ctx, source.total, source.importIds, ['visitors'], 't');
    const using = source.total.dimensions.map((i) => `d${i}`).join(', ');
    const joinWhole = (sql: string, name: string) => (using ? `LEFT JOIN (${sql}) AS ${name} USING (${using})` : `CROSS JOIN (${sql}) AS ${name}`);
    joins.push(joinWhole(nativeSql, 'nt'), joinWhole(importedSql, 't'));
  }
  return {
    from: `(${native}) AS n\n${joins.join('\n')}`,
    metrics: q.metrics.map((metric, i) => `${mergedMetric(metric, i, ctx.sampleRate)} AS m${i}`),
    extras: ['ifNull(n_rows, 0) AS __rows', 'ifNull(n_revenue_missing, 0) AS __revenue_missing'],
  };
}

/**
 * A metric of native and imported rows together (its registry entry says how it merges): counts
 * added, rates divided after their parts are added. Native parts read raw from a sample are
 * scaled here to weigh against whole imported totals.
 */
function mergedMetric(metric: string, index: number, sampleRate: number | null): string {
  const { rate, imported } = metricFacts(metric);
  if (imported?.kind === 'count') return `ifNull(n_m${index}, 0) + ifNull(i_${imported.total}, 0)`;
  if (!rate || !imported) return `n_m${index}`;
  const native = (column: string) => (sampleRate === null || rate.scaled ? `ifNull(${column}, 0)` : `ifNull(${column}, 0) * ${1 / sampleRate}`);
  if (imported.kind === 'share') return rate.round(`(${native(`n_num${index}`)} + ifNull(i_visitors, 0))`, '(ifNull(nt_visitors, 0) + ifNull(t_visitors, 0))');
  return rate.round(`(${native(`n_num${index}`)} + ifNull(i_${imported.numerator}, 0))`, `(${native(`n_den${index}`)} + ifNull(i_${imported.denominator}, 0))`);
}

function alias(q: ResolvedQuery, name: string): string {
  const metric = q.metrics.indexOf(name);
  return metric >= 0 ? `m${metric}` : `d${q.dimensions.indexOf(name)}`;
}

/** One side's grouped subquery; its dimension columns are named after the query's positions. */
function sideSql(side: Side, index: number, ctx: CompileContext): string {
  const dims = side.dims.map((i) => {
    const dimension = ctx.q.dimensions[i]!;
    if (side.exitPageAsPath && dimension === 'visit:exit_page') return `pathname AS k${i}`;
    return `${side.smeared && dimension.startsWith('time:') ? activeBuckets(ctx, dimension) : dimensionKey(ctx, dimension, side.table)} AS k${i}`;
  });
  const columns = [...side.columns].map(([name, column]) => `${column.raw} AS c${index}_${name}`);
  const group = side.dims.map((i) => `k${i}`);
  const base = side.table === 'events' ? eventsBase(ctx, { engagement: side.engagement }) : sessionsBase(ctx);
  const visitSets = side.filters.filter((filter) => isVisitSetTest(filter, side.table));
  const rest = side.filters.filter((filter) => !visitSets.includes(filter));
  const prewhere = visitSets.length ? ` PREWHERE ${and(filtersCondition(visitSets, side.table, ctx))}` : '';
  const rows = `${fromTable(ctx, side.table)}${prewhere} WHERE ${and([...base, ...filtersCondition(rest, side.table, ctx), ...side.extra.map((e) => e.sql)])}`;
  if (side.perVisitMax) {
    const inner = `SELECT ${[...dims, 'session_id', 'max(scroll_depth) AS max_scroll_depth'].join(', ')} FROM ${rows} GROUP BY ${[...group, 'session_id'].join(', ')}`;
    return `SELECT ${[...group, ...columns].join(', ')} FROM (${inner})${group.length ? ` GROUP BY ${group.join(', ')}` : ''}`;
  }
  return `SELECT ${[...dims, ...columns].join(', ')} FROM ${rows}${group.length ? ` GROUP BY ${group.join(', ')}` : ''}`;
}

/**
 * The value a side groups a dimension by: the raw column, cheap to group (LowCardinality stays
 * so); labels for empty values and bucket formatting are applied to the few grouped rows only.
 */
function dimensionKey(ctx: CompileContext, dimension: string, table: 'events' | 'sessions'): string {
  const { params, q } = ctx;
  const kind = dimensionKind(dimension)!;
  switch (kind.kind) {
    case 'column':
      return table === 'sessions' ? (SESSION_DIMENSION_SUBSTITUTES[dimension] ?? kind.def.column) : kind.def.column;
    case 'prop':
      return `props[${params.string(kind.prop)}]`;
    case 'goal':
      return goalKey(ctx);
    case 'time': {
      const ts = table === 'sessions' ? `least(timestamp, ${params.instant(ctx.range.last)})` : 'timestamp';
      const tz = params.string(q.tz);
      if (kind.interval === 'minute') return `toStartOfMinute(${ts}, ${tz})`;
      if (kind.interval === 'hour') return `toStartOfHour(${ts}, ${tz})`;
      return dayBucket(ctx, kind.interval ?? 'day', `toDate(${ts}, ${tz})`);
    }
  }
}

/**
 * Every hour (or minute) bucket a visit was active in within the range: 15-minute (1-minute)
 * slots from its start to its last activity, each taken to its local hour (minute); quarter
 * hours keep zones offset by 30 or 45 minutes right.
 */
function activeBuckets(ctx: CompileContext, dimension: string): string {
  const { params, range, q } = ctx;
  const from = `greatest(start, ${params.instant(range.first)})`;
  const until = `least(timestamp, ${params.instant(range.last)})`;
  const minute = dimension === 'time:minute';
  const slots = `timeSlots(${from}, toUInt32(greatest(dateDiff('second', ${from}, ${until}), 0)), ${minute ? 60 : 900})`;
  return `arrayJoin(arrayDistinct(arrayMap(slot -> ${minute ? 'toStartOfMinute' : 'toStartOfHour'}(slot, ${params.string(q.tz)}), ${slots})))`;
}

function goalColumn(q: ResolvedQuery): string | null {
  const index = q.dimensions.indexOf('event:goal');
  return index >= 0 ? `k${index}` : null;
}
