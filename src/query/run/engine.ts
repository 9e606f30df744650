import type { ClickHouseClient } from '@clickhouse/client';
import { CLASSIFICATIONS } from '../../classifications.js';
import type { QueryConfig } from '../../config/config.js';
import type { MetricWarning, QueryEcho, QueryMeta, QueryResponse, ResultRow } from '../../contracts/query.js';
import { DATA_SPAN_SQL, dataSpanFromRows } from '../../stores/clickhouse/siteSpan.js';
import type { MetaDb } from '../../stores/meta/database.js';
import { completedImports } from '../../stores/meta/imports.js';
import { formatDate, isoWithOffset, parseIsoDate, startOfDay, toLocal } from '../../time/localTime.js';
import { dimensionKind } from '../catalog.js';
import type { ExchangeRates } from '../exchangeRates.js';
import { metricFacts, REVENUE_METRICS } from '../metrics.js';
import type { DateRange, EngineOptions, GroupSet, ParsedQuery, ResolvedQuery, SiteContext } from '../model.js';
import { type CompletedImport, decideImports, type ImportsDecision, importsWarning } from '../plan/importedPlan.js';
import { resolveQuery } from '../plan/resolve.js';
import { expandSegments } from '../plan/segments.js';
import { loadSiteContext, statsSiteRefused } from '../plan/siteContext.js';
import { currentLabel, timeLabels } from '../plan/timeLabels.js';
import { parseRequest, SEGMENT } from '../request/v2.js';
import type { CoverageSource, QueryRollups, RollupReads } from '../rollupReads/rollupReads.js';
import type { CompiledQuery } from '../sql/compile.js';
import { labelKeys } from '../sql/dimensionSql.js';
import { type Row, type Statements, teamStatements, toMetricValue } from './execute.js';
import type { QueryScheduler } from './queryScheduler.js';
import { type Answer, openReads, type QueryReads } from './reads.js';
import { type EventCounts, samplingMeta } from './sampling.js';

/** The query engine: parse → resolve → plan and compile → execute → shape. */
export interface QueryEngineDeps {
  db: MetaDb;
  /** Shares the query connections between teams; every statement goes through it. */
  scheduler: QueryScheduler<ClickHouseClient>;
  limits: QueryConfig;
  /** The ClickHouse cluster the events are spread over (CLICKHOUSE_CLUSTER), or null on one node. */
  cluster: string | null;
  rates: ExchangeRates;
  now(): number;
  /** Which days each site has rolled up (src/rollups/rollups.ts); without it every answer is read raw. */
  rollups?: CoverageSource;
  /** What the roll-ups answer of a query, and the engine's caches of it (src/query/rollupReads/). */
  rollupReads: RollupReads;
  /** Stored events as last counted, which sample rates are chosen from (sampling.ts). */
  eventCounts: EventCounts;
}

export async function runQuery(deps: QueryEngineDeps, teamId: number, body: unknown, options: EngineOptions = {}): Promise<QueryResponse> {
  const parsed = parseRequest(body);
  const site = await loadSiteContext(deps.db, teamId, parsed.siteId, statsSiteRefused);
  const now = deps.now();
  const sql = teamStatements(deps.scheduler, teamId, deps.limits);
  const filters = await expandSegments(deps.db, site, parsed.filters, options.viewerId ?? null);
  const rollups = deps.rollupReads.forQuery(site, deps.rollups);
  const { q, ranges, importsDecision } = await resolveForSite(deps, sql, { ...parsed, filters }, site, now, options, rollups);
  const reads = await openReads({
    q,
    ranges,
    sql,
    rates: deps.rates,
    limits: deps.limits,
    cluster: deps.cluster,
    imported: importsDecision?.included ? importsDecision : undefined,
    rollups,
    eventCounts: deps.eventCounts,
  });
  const { primary, rows, truncated, results } = await answerRows(reads, q);
  return {
    results,
    meta: {
      ...buildMeta(q, primary.compiled, rows, { truncated, sampleRate: reads.sampleRate, now, sources: [...reads.sources].sort().reverse() }),
      ...(importsDecision ? importsMeta(importsDecision) : {}),
    },
    query: echoQuery(q, parsed),
  };
}

/** The query resolved against the site, its ranges, and whether the site's imported data joins it. */
async function resolveForSite(
  deps: QueryEngineDeps,
  sql: Statements,
  parsed: ParsedQuery,
  site: SiteContext,
  now: number,
  options: EngineOptions,
  rollups: QueryRollups,
) {
  const imports = parsed.imports ? await completedImports(deps.db, site.id) : [];
  const siteStart = parsed.dateRange === 'all' ? await firstDataAt(sql, site, imports, rollups) : null;
  const q = resolveQuery(parsed, {
    site,
    now,
    siteStart,
    extraPresets: options.extraPresets,
    classifications: options.countEverything ? CLASSIFICATIONS : undefined,
    relativeTo: options.relativeTo,
    visitCounts: options.visitCounts,
  });
  const ranges = [q.range, ...(q.comparison ? [q.comparison.range] : [])];
  const importsDecision = q.imports ? decideImports(q, imports, ranges) : null;
  return { q, ranges, importsDecision };
}

/** The primary range's page of results, with the comparison's figures attached when one is asked. */
async function answerRows(reads: QueryReads, q: ResolvedQuery): Promise<{ primary: Answer; rows: Row[]; truncated: boolean; results: ResultRow[] }> {
  const timeIndex = q.dimensions.findIndex((d) => d.startsWith('time:'));
  // A comparison is restricted to the groups of the primary answer, unless it is bucketed by time
  // or has no groups: then it is read beside the primary, each statement on its own connection.
  const byGroups = timeIndex < 0 && q.dimensions.length > 0;
  // One row past the page tells whether groups were cut off. The primary is sent before a
  // comparison read beside it: a statement starts with its share of the engine's cores
  // (src/query/run/queryScheduler.ts), and the primary is the one that matters most.
  const primaryAnswer = reads.primary();
  const alongside = q.comparison && !byGroups ? reads.run(q.comparison.range, { paginate: false }) : null;
  // Awaited below; a failing primary must not leave its rejection unhandled meanwhile.
  alongside?.catch(() => undefined);
  const primary = await primaryAnswer;
  const truncated = primary.rows.length > q.limit;
  const rows = primary.rows.slice(0, q.limit);
  let results = rows.map((row) => toResult(row, q));

  if (q.comparison) {
    const onlyTime = q.dimensions.length === 1 && timeIndex === 0;
    if (onlyTime) results = fillTimeBuckets(results, timeLabels(q.range, q.interval, q.tz), q);
    const earlierRows = alongside
      ? (await alongside).rows
      : results.length === 0
        ? []
        : (await reads.run(q.comparison.range, { paginate: false, restrictTo: results.map((r) => r.dimensions), among: comparedGroups(q, results) })).rows;
    attachComparisons(
      results,
      earlierRows.map((row) => toResult(row, q)),
      q,
      timeIndex,
    );
  }
  return { primary, rows, truncated, results };
}

/**
 * The groups a breakdown's comparison is restricted to, as the keys a roll-up read can be narrowed
 * to before it merges any visitor set (one column dimension only; the restriction after grouping
 * stays, so a wider set is harmless).
 */
function comparedGroups(q: ResolvedQuery, results: ResultRow[]): GroupSet | undefined {
  if (q.dimensions.length !== 1 || dimensionKind(q.dimensions[0]!)?.kind !== 'column') return undefined;
  return {
    dimension: 0,
    values: labelKeys(
      q.dimensions[0]!,
      results.map((r) => String(r.dimensions[0])),
    ),
  };
}

/**
 * The first and last day (in the site's time zone) holding any of the site's events, raw or
 * rolled up, null before the first event: what an assistant needs to pick a date range with data in it.
 */
export async function siteDataDays(deps: QueryEngineDeps, teamId: number, domain: string): Promise<{ first: string | null; last: string | null }> {
  const site = await loadSiteContext(deps.db, teamId, domain);
  const rows = await teamStatements(deps.scheduler, teamId, deps.limits)(DATA_SPAN_SQL, { site: site.id, tz: site.timezone });
  const span = dataSpanFromRows(rows, site.timezone);
  const day = (ms: number) => formatDate(toLocal(ms, site.timezone));
  return span ? { first: day(span.first), last: day(span.last) } : { first: null, last: null };
}

/**
 * Where `all` starts: the first event or rolled-up day, or with imported data asked for the first
 * imported day if earlier (the reference's stats start date, §3.4).
 */
async function firstDataAt(sql: Statements, site: SiteContext, imports: CompletedImport[], rollups: QueryRollups): Promise<number | null> {
  // Kept while the site's coverage and windows stand (src/query/rollupReads/rollupReads.ts).
  const firstEvent = await rollups.firstEvent(() => firstEventAt(sql, site));
  const firstImported = imports.map((i) => i.from).sort()[0];
  const importStart = firstImported === undefined ? null : startOfDay(parseIsoDate(firstImported)!, site.timezone);
  if (firstEvent === null || importStart === null) return firstEvent ?? importStart;
  return Math.min(firstEvent, importStart);
}

/** The site's first event or rolled-up day, as the store holds them now. */
export async function firstEventAt(sql: Statements, site: SiteContext): Promise<number | null> {
  return dataSpanFromRows(await sql(DATA_SPAN_SQL, { site: site.id, tz: site.timezone }), site.timezone)?.first ?? null;
}

/** `meta.imports_*` as the reference's API v2 reports them: included or not, and why not. */
function importsMeta(decision: ImportsDecision): Pick<QueryMeta, 'imports_included' | 'imports_skip_reason' | 'imports_warning'> {
  if (decision.included) return { imports_included: true };
  const warning = importsWarning(decision);
  return { imports_included: false, imports_skip_reason: decision.reason, ...(warning ? { imports_warning: warning } : {}) };
}

function toResult(row: Row, q: ResolvedQuery): ResultRow {
  return {
    dimensions: q.dimensions.map((_, i) => String(row[`d${i}`] ?? '')),
    metrics: q.metrics.map((_, i) => toMetricValue(row[`m${i}`])),
  };
}

/** What a metric reads when nothing happened: zero for counts and rates, null for averages of nothing. */
export const emptyValue = (metric: string): number | null => metricFacts(metric).empty;

function fillTimeBuckets(results: ResultRow[], labels: string[], q: ResolvedQuery): ResultRow[] {
  const byLabel = new Map(results.map((r) => [r.dimensions[0]!, r]));
  return labels.map((label) => byLabel.get(label) ?? { dimensions: [label], metrics: q.metrics.map(emptyValue) });
}

/**
 * Comparison rows match primary rows on their dimensions, with time buckets matched by position
 * (the first day of this week against the first day of last week).
 */
function attachComparisons(results: ResultRow[], earlier: ResultRow[], q: ResolvedQuery, timeIndex: number): void {
  const position = (range: DateRange) => new Map(timeLabels(range, q.interval, q.tz).map((label, i) => [label, String(i)]));
  const primaryPositions = timeIndex >= 0 ? position(q.range) : null;
  const earlierPositions = timeIndex >= 0 ? position(q.comparison!.range) : null;
  const key = (dimensions: string[], positions: Map<string, string> | null) =>
    JSON.stringify(dimensions.map((d, i) => (i === timeIndex ? (positions!.get(d) ?? d) : d)));
  const byKey = new Map(earlier.map((row) => [key(row.dimensions, earlierPositions), row]));
  const earlierLabels = timeIndex >= 0 ? timeLabels(q.comparison!.range, q.interval, q.tz) : [];
  for (const row of results) {
    const match = byKey.get(key(row.dimensions, primaryPositions));
    const dimensions = match?.dimensions ?? row.dimensions.map((d, i) => (i === timeIndex ? (earlierLabels[Number(primaryPositions!.get(d))] ?? d) : d));
    const metrics = match?.metrics ?? q.metrics.map(emptyValue);
    row.comparison = { dimensions, metrics, change: q.metrics.map((metric, i) => change(metric, row.metrics[i] ?? null, metrics[i] ?? null)) };
  }
}

/** Half away from zero, as the reference's change figures round. */
const roundHalfAway = (value: number, digits = 0) => {
  const factor = 10 ** digits;
  return (Math.sign(value) * Math.round(Math.abs(value) * factor)) / factor;
};

/**
 * Change from the earlier value: percentage points for rates (bounce rate in whole points,
 * conversion and exit rates to one decimal), otherwise a whole percentage; null when the
 * earlier value was zero or either is missing.
 */
export function change(metric: string, now: number | null, before: number | null): number | null {
  if (now === null || before === null || before === 0) return null;
  const kind = metricFacts(metric).change;
  if (kind === 'points') return now - before;
  if (kind === 'points1') return roundHalfAway(now - before, 1);
  return roundHalfAway(((now - before) / before) * 100);
}

function buildMeta(
  q: ResolvedQuery,
  compiled: CompiledQuery,
  rows: Row[],
  context: { truncated: boolean; sampleRate: number | null; now: number; sources: string[] },
): QueryMeta {
  const warnings: Record<string, MetricWarning[]> = {};
  const warn = (metric: string, warning: MetricWarning) => (warnings[metric] ??= []).push(warning);
  const revenue = compiled.revenue;
  const revenueMetrics = q.metrics.filter((m) => REVENUE_METRICS.includes(m));
  if (revenue?.kind === 'unavailable') revenueMetrics.forEach((m) => warn(m, { code: revenue.code, warning: revenue.warning }));
  const missingRate = rows.reduce((sum, row) => sum + (toMetricValue(row.__revenue_missing) ?? 0), 0);
  if (missingRate > 0) {
    revenueMetrics.forEach((m) =>
      warn(m, {
        code: 'exchange_rate_missing',
        warning: `${missingRate} revenue event(s) are left out: their currency has no exchange rate into the goal's currency.`,
      }),
    );
  }
  if (context.truncated) {
    q.metrics.forEach((m) =>
      warn(m, { code: 'truncated_groups', warning: `Only the first ${q.limit} groups are listed; page on with pagination.offset for the rest.` }),
    );
  }
  // The bucket still filling is told by its place among all the range's buckets, not among the
  // rows: a bucket nothing has happened in yet (the current minute, often) has no row.
  const bucketed = q.dimensions.some((d) => d.startsWith('time:'));
  const buckets = bucketed || q.timeLabels ? timeLabels(q.range, q.interval, q.tz) : [];
  const filling = bucketed ? currentLabel(q.range, q.interval, q.tz, context.now) : null;
  const presentIndex = filling === null ? -1 : buckets.indexOf(filling);
  if (presentIndex >= 0) {
    q.metrics.forEach((m) => warn(m, { code: 'bucket_in_progress', warning: `The bucket ${filling} is still in progress; its figures will grow.` }));
  }
  const rawRows = rows.reduce((sum, row) => sum + (toMetricValue(row.__rows) ?? 0), 0);
  return {
    interval: q.interval,
    sources: context.sources,
    sample_rate: context.sampleRate ?? 1,
    present_index: presentIndex >= 0 ? presentIndex : null,
    // Every listed metric has at least one warning.
    metric_warnings: Object.fromEntries(Object.entries(warnings).map(([metric, [first, ...also]]) => [metric, also.length > 0 ? { ...first!, also } : first!])),
    ...(revenue?.kind === 'converted' ? { currency: Object.fromEntries(revenueMetrics.map((m) => [m, revenue.currency])) } : {}),
    ...(q.timeLabels ? { time_labels: buckets } : {}),
    ...(q.totalRows ? { total_rows: toMetricValue(rows[0]?.__total_rows) ?? 0 } : {}),
    ...(context.sampleRate !== null ? { sampling: samplingMeta(context.sampleRate, q.metrics, q.specs, rawRows) } : {}),
  };
}

function echoQuery(q: ResolvedQuery, parsed: ParsedQuery): QueryEcho {
  const dateRange = (range: DateRange): [string, string] => [isoWithOffset(range.first, q.tz), isoWithOffset(range.last, q.tz)];
  return {
    site_id: q.site.domain,
    metrics: q.metrics,
    date_range: dateRange(q.range),
    dimensions: q.dimensions,
    filters: echoFilters(parsed),
    order_by: q.orderBy,
    pagination: { limit: q.limit, offset: q.offset },
    include: {
      ...(q.comparison
        ? {
            comparisons: {
              mode: q.comparison.mode,
              date_range: dateRange(q.comparison.range),
              ...(q.comparison.matchDayOfWeek ? { match_day_of_week: true } : {}),
            },
          }
        : {}),
      ...(q.timeLabels ? { time_labels: true } : {}),
      ...(q.totalRows ? { total_rows: true } : {}),
      ...(q.trimRelativeDateRange ? { trim_relative_date_range: true } : {}),
      ...(q.imports ? { imports: true } : {}),
    },
    timezone: q.tz,
    exact: q.exact,
  };
}

/** Filters as resolved: aliases replaced by their dimensions, options spelled out. */
export function echoFilters(parsed: ParsedQuery): unknown[] {
  const echo = (tree: ParsedQuery['filters'][number]): unknown => {
    // A segment's ids are numbers, as they were asked for.
    if ('dimension' in tree)
      return [
        tree.op,
        tree.dimension,
        tree.dimension === SEGMENT ? tree.values.map(Number) : tree.values,
        ...(tree.caseSensitive ? [] : [{ case_sensitive: false }]),
      ];
    if ('children' in tree) return [tree.op, tree.children.map(echo)];
    return [tree.op, echo(tree.child)];
  };
  return parsed.filters.map(echo);
}
