import { IMPORTED_ROLLUPS, importedTableName } from '../../stores/clickhouse/schema.js';
import { formatDate, toLocal } from '../../time/localTime.js';
import { dimensionKind } from '../catalog.js';
import { goalDimensionGoals, goalsInFilters, isScrollGoal } from '../goals.js';
import { isImportableMetric, metricFacts, totalsOf } from '../metrics.js';
import type { DateRange, FilterTree, ImportedTotal, ResolvedQuery } from '../model.js';

/**
 * Whether a query can include a site's imported data, and from which daily table: Plausible's
 * rules (its `lib/plausible/stats/imported/*.ex`).
 * Imported rows are daily totals per value of one table's columns (src/stores/clickhouse/schema.ts,
 * the `rollup_*` tables, rows of an import carry its id), so a query can include them only when
 * every dimension and filter it uses is a column of one table and every metric can be rebuilt from
 * that table's totals. Pure: the engine gives it the query and the site's completed imports.
 */

export interface ImportedTable {
  name: string;
  /** Query dimension → the table's column holding it. */
  dimensions: Record<string, string>;
  /** Total → its column on this table; a total the table lacks is missing. */
  totals: Partial<Record<ImportedTotal, string>>;
  /** Goal filters and the goal dimension read event goals from this table's event names. */
  eventGoals?: boolean;
}

/**
 * The tables by the dimensions and totals their columns hold (src/stores/clickhouse/schema.ts
 * IMPORTED_ROLLUPS, which also says which dimensions none holds, and why), in the order a query
 * chooses among them. Goals are read from the event names of the table that holds them.
 */
export const IMPORTED_TABLES: ImportedTable[] = IMPORTED_ROLLUPS.map((rollup) => {
  const held = Object.entries(rollup.columns);
  const dimensions = Object.fromEntries(held.flatMap(([column, c]) => (c.dimensions ?? []).map((dimension) => [dimension, c.read ?? column])));
  const totals: ImportedTable['totals'] = Object.fromEntries(held.flatMap(([column, c]) => (c.totals ?? []).map((total) => [total, column])));
  return { name: importedTableName(rollup), dimensions, totals, eventGoals: Object.hasOwn(dimensions, 'event:name') };
});

/** One grouped read of an imported table: which table, under which filters, by which of the query's dimensions (indices). */
export interface ImportedRead {
  table: ImportedTable;
  filters: FilterTree[];
  dimensions: number[];
}

/** An import's days, as its record holds them (src/stores/meta/imports.ts). */
export interface CompletedImport {
  id: number;
  from: string;
  to: string;
}

export type ImportsSkipReason = 'unsupported_interval' | 'no_imported_data' | 'out_of_range' | 'unsupported_query';

/** `main` answers the groups; `total`, when a share metric is asked for, the whole it is a share of. */
export interface ImportedSource {
  importIds: number[];
  main: ImportedRead;
  total: ImportedRead | null;
}

export type ImportsDecision = ({ included: true } & ImportedSource) | { included: false; reason: ImportsSkipReason; why?: string };

/**
 * The decision, with the reference's skip reasons in its order. `ranges` are the primary range and
 * the comparison's, if any: an import overlapping either is enough.
 */
export function decideImports(q: ResolvedQuery, imports: CompletedImport[], ranges: DateRange[]): ImportsDecision {
  if (q.dimensions.some((d) => d === 'time:hour' || d === 'time:minute')) return { included: false, reason: 'unsupported_interval' };
  if (imports.length === 0) return { included: false, reason: 'no_imported_data' };
  const days = ranges.map((range) => localDays(range, q.tz));
  const overlapping = imports.filter((i) => days.some((d) => i.from <= d.to && i.to >= d.from));
  if (overlapping.length === 0) return { included: false, reason: 'out_of_range' };
  const choice = chooseReads(q);
  if ('why' in choice) return { included: false, reason: 'unsupported_query', why: choice.why };
  return { included: true, importIds: overlapping.map((i) => i.id), ...choice };
}

/** The local days a range touches: imported rows are whole days, read when their day is in range. */
export function localDays(range: DateRange, tz: string): { from: string; to: string } {
  return { from: formatDate(toLocal(range.first, tz)), to: formatDate(toLocal(range.last, tz)) };
}

function chooseReads(q: ResolvedQuery): { main: ImportedRead; total: ImportedRead | null } | { why: string } {
  const unsupportedMetric = q.metrics.find((metric) => !isImportableMetric(metric));
  if (unsupportedMetric !== undefined) return { why: `the metric ${unsupportedMetric} has no imported form` };
  const allDimensions = q.dimensions.map((_, i) => i);
  const main = chooseTable(q, allDimensions, q.filters);
  if ('why' in main) return main;
  const missing = q.metrics.filter((metric) => totalsOf(metric).some((total) => main.table.totals[total] === undefined));
  if (missing.length > 0) return { why: `imported ${main.table.name.replace(/^rollup_/, '').replaceAll('_', ' ')} carry no ${missing.join(', ')}` };
  const shares = q.metrics.flatMap((metric) => {
    const merge = metricFacts(metric).imported;
    return merge?.kind === 'share' ? [{ metric, whole: merge.whole }] : [];
  });
  if (shares.length > 1) return { why: `imported data answers one of ${shares.map((share) => share.metric).join(', ')} per query` };
  const share = shares[0];
  if (share === undefined) return { main, total: null };
  // The same wholes as the native side (the metric's registry entry, src/query/metrics.ts).
  if (share.whole === null) return { main, total: { ...main, dimensions: [] } };
  const whole = share.whole(q);
  const total = chooseTable(q, whole.dimensions, whole.filters);
  if ('why' in total) return { why: `the visitors ${share.metric} divides by: ${total.why}` };
  return { main, total };
}

/** The one table holding the given dimensions (indices into the query's) and every leaf of the filters. */
function chooseTable(q: ResolvedQuery, dimensions: number[], filters: FilterTree[]): ImportedRead | { why: string } {
  const used = new Set<string>();
  const visit = (tree: FilterTree): string | null => {
    if ('dimension' in tree) {
      used.add(tree.dimension);
      return null;
    }
    if ('children' in tree) return tree.children.map(visit).find((why) => why !== null) ?? null;
    if (tree.op === 'not') return visit(tree.child);
    return `imported data holds no visits to filter by what they did (${tree.op})`;
  };
  const behavioural = filters.map(visit).find((why) => why !== null);
  if (behavioural) return { why: behavioural };
  for (const i of dimensions) if (dimensionKind(q.dimensions[i]!)?.kind !== 'time') used.add(q.dimensions[i]!);

  const goals = used.has('event:goal') ? [...goalsInFilters(filters, q.site.goals), ...goalDimensionGoals(q)] : [];
  if (goals.some((goal) => goal.eventName === null)) {
    return { why: `page${goals.some(isScrollGoal) ? ' and scroll' : ''} goals are not matched against imported data, only custom-event goals` };
  }
  const candidates = IMPORTED_TABLES.filter((table) =>
    [...used].every((dimension) => Object.hasOwn(table.dimensions, dimension) || (dimension === 'event:goal' && table.eventGoals === true)),
  );
  // With nothing to group or filter by, the site-wide daily totals answer.
  const table = used.size === 0 ? IMPORTED_TABLES[0] : candidates[0];
  if (!table) {
    const names = [...used].sort().join(', ');
    return { why: `no imported table holds ${used.size > 1 ? 'all of ' : ''}${names}` };
  }
  return { table, filters, dimensions };
}

/** The reference's warnings (clients match on their wording), with our reason after. */
export function importsWarning(decision: ImportsDecision): string | null {
  if (decision.included) return null;
  if (decision.reason === 'unsupported_interval') return 'Imported stats are not included because the time dimension (i.e. the interval) is too short.';
  if (decision.reason === 'unsupported_query') {
    return `Imported stats are not included in the results because query parameters are not supported: ${decision.why}. See "Imported data" in docs/query-api.md.`;
  }
  return null;
}
