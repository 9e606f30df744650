import type { FilterOperator, Interval } from './catalog.js';
import type { SqlParams } from './sqlParams.js';

/**
 * The query's data, as each stage hands it to the next: a request parsed (ParsedQuery, its
 * FilterTree), resolved against the site (ResolvedQuery), and compiled (CompileContext, Side).
 * Types only, so every stage imports them and none imports another stage for a type.
 */

export type FilterTree =
  | { op: FilterOperator; dimension: string; values: string[]; caseSensitive: boolean }
  | { op: 'and' | 'or'; children: FilterTree[] }
  | { op: 'not'; child: FilterTree }
  | { op: 'has_done' | 'has_not_done'; child: FilterTree };

export type ComparisonRequest = { mode: 'previous_period' | 'year_over_year' | 'custom'; dateRange?: [string, string]; matchDayOfWeek: boolean };

/** A request that passed every structural check; semantics (goals, date bounds, compatibility) come next. */
export interface ParsedQuery {
  siteId: string;
  metrics: string[];
  metricSpecs: MetricSpec[];
  dateRange: string | [string, string];
  dimensions: string[];
  filters: FilterTree[];
  orderBy: [string, 'asc' | 'desc'][] | null;
  limit: number;
  offset: number;
  comparison: ComparisonRequest | null;
  timezone: string | null;
  exact: boolean;
  /** Every bucket label of the range in meta.time_labels; the number of groups in meta.total_rows. */
  timeLabels: boolean;
  totalRows: boolean;
  /** `month` and `year` end today rather than at their last day. */
  trimRelativeDateRange: boolean;
  /** Imported data is merged in where the query allows (src/query/plan/importedPlan.ts). */
  imports: boolean;
}

/** Options the v1 adapter passes: its extra presets, and `with_bots` counting every classification. */
export interface EngineOptions {
  extraPresets?: boolean;
  countEverything?: boolean;
  /** v1 `date`: the day ranges are relative to. */
  relativeTo?: string;
  /** v1 breakdowns: pageviews and events beside entry or exit pages are the visits' own counts. */
  visitCounts?: boolean;
  /** The signed-in user (or API key's user) asking: their personal segments may be filtered on. */
  viewerId?: number | null;
}

/** A metric as the engine understands it: a built-in one, or an aggregate of a numeric custom property. */
export type MetricSpec = { kind: 'builtin'; name: BuiltinMetric } | { kind: 'prop'; fn: PropAggregate | 'quantile'; quantile: number; prop: string };

/**
 * The built-in metrics by name. The registry (src/query/metrics.ts) holds one entry for each and
 * the type checker holds the two together: an entry missing here, or a name here without one,
 * fails to compile.
 */
export type BuiltinMetric =
  | 'visitors'
  | 'visits'
  | 'pageviews'
  | 'events'
  | 'views_per_visit'
  | 'percentage'
  | 'bounce_rate'
  | 'visit_duration'
  | 'time_on_page'
  | 'scroll_depth'
  | 'exit_rate'
  | 'conversion_rate'
  | 'group_conversion_rate'
  | 'total_revenue'
  | 'average_revenue'
  | 'revenue_per_visitor';

/** Aggregates of a numeric custom property besides percentiles (src/query/metrics.ts PROP_AGGREGATES lists them). */
export type PropAggregate = 'sum' | 'avg' | 'min' | 'max';

/** What the engine needs to know about a site besides its events. */
export interface SiteContext {
  id: number;
  domain: string;
  timezone: string;
  /** Classification reasons this site counts in its reports ('' = unclassified is always counted). */
  includedClassifications: string[];
  goals: Goal[];
  /** Raw events before this instant were deleted once rolled up (src/query/rollupReads/rawHorizon.ts); null: all kept. */
  rawEventsFrom: number | null;
}

export interface Goal {
  displayName: string;
  eventName: string | null;
  pagePath: string | null;
  /** -1 = not a scroll goal. */
  scrollThreshold: number;
  currency: string | null;
}

/** A range of a query, in instants (src/query/plan/dateRange.ts resolves it from a request). */
export interface DateRange {
  first: number;
  last: number;
  /** Whole local days (shifted by days and years in comparisons) or an instant span (`day`, `24h`, realtime). */
  unit: 'days' | 'span';
  /** `all`: it starts at the site's first stored day, so a run of days starting earlier holds the same rows. */
  fromFirstEvent?: true;
}

/** A query with every name, bound and default settled: what the planner and compiler read. */
export interface ResolvedQuery {
  site: SiteContext;
  tz: string;
  metrics: string[];
  specs: MetricSpec[];
  /** Canonical dimensions in request order; bare `time` is replaced by its width. */
  dimensions: string[];
  interval: Interval;
  filters: FilterTree[];
  range: DateRange;
  comparison: (ComparisonRequest & { range: DateRange }) | null;
  orderBy: [string, 'asc' | 'desc'][];
  limit: number;
  offset: number;
  exact: boolean;
  timeLabels: boolean;
  totalRows: boolean;
  trimRelativeDateRange: boolean;
  /** Imported data asked for (`include.imports`, v1 `with_imported`). */
  imports: boolean;
  /** Classification reasons counted in this query besides ''. */
  classifications: readonly string[];
  /** Pageviews and events are read from the visits (v1, beside entry or exit pages). */
  visitCounts: boolean;
}

/** Values of one dimension (as text) that a query's groups are restricted to. */
export interface GroupSet {
  dimension: number;
  values: string[];
}

/** The totals an imported row carries, each summed over the rows of a group: the imported tables' (src/stores/clickhouse/schema.ts). */
export type { ImportedTotal } from '../stores/clickhouse/schema.js';

/** What every statement of one query shares: the query, its parameters, the range read and the sample. */
export interface CompileContext {
  q: ResolvedQuery;
  params: SqlParams;
  range: DateRange;
  /** Fraction of visitors read (ClickHouse SAMPLE on user_id); null reads everything. */
  sampleRate: number | null;
}

/**
 * One grouped subquery of a compiled query on one table (events, sessions, or a helper such as
 * the conversion-rate denominator); the first side holds the result rows and the others are
 * joined to it on the dimension values (src/query/sql/compile.ts).
 */
export interface Side {
  table: 'events' | 'sessions';
  /** Indices of the query dimensions this side groups by. */
  dims: number[];
  columns: Map<string, Column>;
  /**
   * The rows read, kept apart so a roll-up can read the same (src/query/rollupReads/): the
   * table's base (site, range, classification; engagement rows on events only when asked), the
   * query's filters, and further conditions with the columns they read (null: raw rows only).
   */
  engagement: boolean;
  filters: FilterTree[];
  extra: { sql: string; columns: readonly string[] | null }[];
  /** Scroll depth is a maximum per visit first, then an average over visits. */
  perVisitMax?: boolean;
  /** Exit-rate denominators: pageviews grouped by the page they were on, as exits are by exit page. */
  exitPageAsPath?: boolean;
  /** Visits counted in every hour (or minute) bucket they were active in, not only the one they ended in. */
  smeared?: boolean;
}

/**
 * How the roll-ups answer one range's sides (src/query/rollupReads/rollupReads.ts). Each side is
 * asked once, when its range is prepared; the answer then renders it in every statement of the range.
 */
export interface RangeRollups {
  /** The side read from roll-ups, or null where only raw rows answer it. */
  side(side: Side, ctx: CompileContext): RolledSide | null;
  /** Where raw rows are read from when the roll-ups answer every side: after the last day rolled up (stitched), or null. */
  readonly rawFrom: number | null;
}

/** A side the roll-ups answer, rendered for each statement of its range. */
export interface RolledSide {
  /** Its grouped subquery (columns `c<index>_<name>`), reading only the groups `among` where it groups by that dimension. */
  sql(ctx: CompileContext, index: number, among?: GroupSet): string;
  /** Its groups ranked by their summed visitor bounds, `count` + 1 of them; null where each group is one row holding its own count. */
  ranking(ctx: CompileContext, count: number): string | null;
}

/** An aggregate on raw rows, and the same aggregate on a roll-up's states (null: it has none). */
export interface Column {
  raw: string;
  rollup: string | null;
}

/**
 * How revenue metrics are computed for a query: only events of revenue goals count, converted
 * into the goal's currency. One currency applies when the goals in play share it; grouped by
 * event:goal each row has its goal's; otherwise the values are null with a warning.
 */
export type RevenuePlan =
  | { kind: 'unavailable'; code: 'no_revenue_goals_matching' | 'no_single_revenue_currency'; warning: string }
  | {
      kind: 'converted';
      amount: string;
      missingRate: string;
      currency: string | Record<string, string>;
      /** Grouped by goal: whether the row's goal is a revenue goal at all (others read null). */
      rowIsRevenue: string | null;
    };
