import type { Direction, JourneyStep } from '../../contracts/journeys.js';
import { dimensionKind } from '../catalog.js';
import type { CompileContext, FilterTree } from '../model.js';
import { filtersCondition } from '../sql/filters.js';
import { and, eventsBase, fromTable } from '../sql/tables.js';
import { CANDIDATE_LABEL_SQL, NORMAL_PATHNAME_SQL, stepCondition } from './steps.js';

/**
 * The journeys statements on the events table (src/query/journeys/runJourneys.ts). Each visit's
 * path is built once per statement: its pageviews and custom events in time order as
 * (name, page) tuples, a step equal to the one before dropped, read backwards for a backward
 * journey. A journey of k steps is taken at position i when elements i … i+k-1 match steps
 * 1 … k (out-of-range elements are empty tuples, which match no step); the next steps are the
 * elements at i+k.
 */

export interface JourneyShape {
  steps: JourneyStep[];
  direction: Direction;
}

/**
 * The filters as whole visits: a filter on visit attributes keeps its visits' events (every
 * event of a visit carries them), any other is read as "visits that did" (has_done), so a path
 * is always the visit's whole path.
 */
export function visitFilters(filters: FilterTree[]): FilterTree[] {
  return filters.map((tree) => (tree.op === 'has_done' || tree.op === 'has_not_done' || onVisitsOnly(tree) ? tree : { op: 'has_done', child: tree }));
}

function onVisitsOnly(tree: FilterTree): boolean {
  if ('dimension' in tree) {
    const kind = dimensionKind(tree.dimension);
    return kind?.kind === 'column' && kind.def.scope !== 'event';
  }
  if ('children' in tree) return tree.children.every(onVisitsOnly);
  return tree.op === 'not' && onVisitsOnly(tree.child);
}

/** Per visit: its visitor, its events read, and its path. */
function visitPaths(ctx: CompileContext, direction: Direction): string {
  const where = and([...eventsBase(ctx, { engagement: false }), ...filtersCondition(visitFilters(ctx.q.filters), 'events', ctx)]);
  // Events of one second keep a fixed order: the page before what happened on it.
  const ordered = `arrayMap(e -> (e.2, e.3), arraySort(e -> (e.1, e.2 != 'pageview', e.2, e.3), groupArray((timestamp, toString(name), ${NORMAL_PATHNAME_SQL}))))`;
  const collapsed = 'arrayFilter((s, i) -> i = 1 OR s != timeline[i - 1], timeline, arrayEnumerate(timeline))';
  const path = direction === 'forward' ? collapsed : `arrayReverse(${collapsed})`;
  return `SELECT user_id, count() AS events, ${ordered} AS timeline, ${path} AS path FROM ${fromTable(ctx, 'events')} WHERE ${where} GROUP BY user_id, session_id`;
}

/** Whether the path holds the first `count` steps one right after another at position `i`. */
function matchesAt(steps: JourneyStep[], count: number, ctx: CompileContext): string {
  return steps
    .slice(0, count)
    .map((step, j) => stepCondition(step, `path[i + ${j}]`, ctx.params))
    .join(' AND ');
}

const scaled = (sql: string, ctx: CompileContext) => (ctx.sampleRate === null ? sql : `round(${sql} * ${1 / ctx.sampleRate})`);

/** The events read, and per step the visitors whose visits took the journey up to it (`s1` … `sk`). */
export function funnelStatement(ctx: CompileContext, shape: JourneyShape): string {
  const took = shape.steps.map(
    (_, j) => `${scaled(`uniqIf(user_id, arrayExists(i -> ${matchesAt(shape.steps, j + 1, ctx)}, arrayEnumerate(path)))`, ctx)} AS s${j + 1}`,
  );
  return `SELECT ${['sum(events) AS events', ...took].join(', ')} FROM (${visitPaths(ctx, shape.direction)})`;
}

/**
 * The candidates for the next step, busiest first, each with its visitors: every page and event
 * on a page that comes right after the journey (with no steps, every step of every path), and
 * every folder of those pages holding more than one of them whose visitors are more than its
 * busiest page's. A folder's visitors merge its pages' visitor sets, so its busiest page is read
 * from the same sets.
 */
export function candidatesStatement(ctx: CompileContext, shape: JourneyShape, options: { limit: number; search: string | null }): string {
  const k = shape.steps.length;
  const next = k === 0 ? 'path' : `arrayMap(i -> path[i + ${k}], arrayFilter(i -> ${matchesAt(shape.steps, k, ctx)}, arrayEnumerate(path)))`;
  // Folders of a page: `/blog` and `/blog/a` for `/blog/a` (the page itself is the folder of the pages below it).
  const folders =
    "arrayFilter(f -> f != '/', arrayMap(j -> arrayStringConcat(arraySlice(splitByChar('/', x.2), 1, j), '/'), range(2, length(splitByChar('/', x.2)) + 1)))";
  const expand = `if(x.1 = 'pageview', arrayPushFront(arrayMap(f -> ('group', x.1, f, x.2), ${folders}), ('page', x.1, x.2, x.2)), [('event', x.1, x.2, x.2)])`;
  const candidates = `arrayDistinct(arrayFlatten(arrayMap(x -> ${expand}, arrayDistinct(arrayFilter(x -> x.1 != '', ${next})))))`;
  const perMember = `SELECT c.1 AS kind, c.2 AS name, c.3 AS page, c.4 AS member, uniqState(user_id) AS seen FROM (SELECT user_id, arrayJoin(${candidates}) AS c FROM (${visitPaths(ctx, shape.direction)})) GROUP BY kind, name, page, member`;
  const perCandidate = `SELECT kind, name, page, count() AS pages, uniqMerge(seen) AS reached, max(finalizeAggregation(seen)) AS busiest FROM (${perMember}) GROUP BY kind, name, page`;
  const search = options.search === null ? '' : ` AND positionCaseInsensitiveUTF8(label, ${ctx.params.string(options.search)}) > 0`;
  return `SELECT kind, name, page, pages, ${scaled('reached', ctx)} AS visitors, ${CANDIDATE_LABEL_SQL} AS label FROM (${perCandidate}) WHERE (kind != 'group' OR (pages > 1 AND reached > busiest))${search} ORDER BY visitors DESC, label ASC LIMIT ${ctx.params.add(options.limit, 'UInt32')}`;
}
