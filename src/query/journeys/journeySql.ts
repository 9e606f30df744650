import type { Direction, JourneyStep } from '../../contracts/journeys.js';
import { selectsVisits } from '../filterTrees.js';
import type { CompileContext, FilterTree } from '../model.js';
import { filtersCondition, isVisitSetTest } from '../sql/filters.js';
import { and, eventsBase, fromTable } from '../sql/tables.js';
import { CANDIDATE_LABEL_SQL, elementColumns, NORMAL_PATHNAME_SQL, ROW_COLUMNS, stepCondition } from './steps.js';

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
  return filters.map((tree) => (selectsVisits(tree) ? tree : { op: 'has_done', child: tree }));
}

interface ReadEvents {
  from: string;
  where: string;
  /** The filters that test a row's visit against a set of visits: read first, in PREWHERE. */
  visitSets: string[];
}

/** The events a journey reads: the base conditions, the filters as whole visits. */
function readEvents(ctx: CompileContext): ReadEvents {
  const filters = visitFilters(ctx.q.filters);
  const visitSets = filters.filter((tree) => isVisitSetTest(tree, 'events'));
  const rows = filters.filter((tree) => !isVisitSetTest(tree, 'events'));
  return {
    from: fromTable(ctx, 'events'),
    where: and([...eventsBase(ctx, { engagement: false }), ...filtersCondition(rows, 'events', ctx)]),
    visitSets: filtersCondition(visitSets, 'events', ctx),
  };
}

/** `FROM … [PREWHERE …] WHERE …` of the events read, with further visit tests read first too. */
function fromEvents(events: ReadEvents, visitTests: string[] = []): string {
  const prewhere = [...events.visitSets, ...visitTests];
  return `FROM ${events.from}${prewhere.length ? ` PREWHERE ${and(prewhere)}` : ''} WHERE ${events.where}`;
}

/**
 * Per visit holding every one of `holding` (a visit can only take a journey whose steps it
 * holds): its visitor, its events read, and its path. The visits are chosen on the narrow name
 * and page columns first, so paths are built for them alone.
 */
function visitPaths(ctx: CompileContext, direction: Direction, holding: JourneyStep[]): string {
  const events = readEvents(ctx);
  const held = holding.map((step) => `countIf(${stepCondition(step, ROW_COLUMNS, ctx.params)}) > 0`);
  const visits = `session_id IN (SELECT session_id FROM ${events.from} WHERE ${events.where} GROUP BY session_id HAVING ${held.join(' AND ')})`;
  // Events of one second keep a fixed order: the page before what happened on it.
  const ordered = `arrayMap(e -> (e.2, e.3), arraySort(e -> (e.1, e.2 != 'pageview', e.2, e.3), groupArray((timestamp, toString(name), ${NORMAL_PATHNAME_SQL}))))`;
  const collapsed = 'arrayFilter((s, i) -> i = 1 OR s != timeline[i - 1], timeline, arrayEnumerate(timeline))';
  const path = direction === 'forward' ? collapsed : `arrayReverse(${collapsed})`;
  return `SELECT any(user_id) AS user_id, count() AS events, ${ordered} AS timeline, ${path} AS path ${fromEvents(events, holding.length ? [visits] : [])} GROUP BY session_id`;
}

/** Whether the path holds the first `count` steps one right after another at position `i`. */
function matchesAt(steps: JourneyStep[], count: number, ctx: CompileContext): string {
  return steps
    .slice(0, count)
    .map((step, j) => stepCondition(step, elementColumns(`path[i + ${j}]`), ctx.params))
    .join(' AND ');
}

const scaled = (sql: string, ctx: CompileContext) => (ctx.sampleRate === null ? sql : `round(${sql} * ${1 / ctx.sampleRate})`);

/** The events read, and per step the visitors whose visits took the journey up to it (`s1` … `sk`). */
export function funnelStatement(ctx: CompileContext, shape: JourneyShape): string {
  // One step is taken wherever an event matches it: no path is needed.
  if (shape.steps.length <= 1) {
    const took = shape.steps.map((step) => `, ${scaled(`uniqIf(user_id, ${stepCondition(step, ROW_COLUMNS, ctx.params)})`, ctx)} AS s1`);
    return `SELECT count() AS events${took.join('')} ${fromEvents(readEvents(ctx))}`;
  }
  const took = shape.steps.map(
    (_, j) => `${scaled(`uniqIf(user_id, arrayExists(i -> ${matchesAt(shape.steps, j + 1, ctx)}, arrayEnumerate(path)))`, ctx)} AS s${j + 1}`,
  );
  // Every visit reaching the first step counts towards the events read: a sample's warnings are about those.
  return `SELECT ${['sum(events) AS events', ...took].join(', ')} FROM (${visitPaths(ctx, shape.direction, shape.steps.slice(0, 1))})`;
}

/**
 * The candidates for the next step, busiest first, each with its visitors: every page and event
 * on a page that comes right after the journey (with no steps, every step of every visit), and
 * every folder of those pages holding more than one of them whose visitors are more than its
 * busiest page's. Each step's visitor set is gathered once; a folder merges its pages' sets.
 */
export function candidatesStatement(ctx: CompileContext, shape: JourneyShape, options: { limit: number; search: string | null }): string {
  const k = shape.steps.length;
  let steps: string;
  if (k === 0) {
    steps = `SELECT user_id, toString(name) AS name, ${NORMAL_PATHNAME_SQL} AS page ${fromEvents(readEvents(ctx))}`;
  } else {
    const next = `arrayMap(i -> path[i + ${k}], arrayFilter(i -> ${matchesAt(shape.steps, k, ctx)}, arrayEnumerate(path)))`;
    steps = `SELECT user_id, x.1 AS name, x.2 AS page FROM (${visitPaths(ctx, shape.direction, shape.steps)}) ARRAY JOIN arrayDistinct(arrayFilter(x -> x.1 != '', ${next})) AS x`;
  }
  const perStep = `SELECT name, page, uniqState(user_id) AS seen FROM (${steps}) GROUP BY name, page`;
  // Folders of a page: `/blog` and `/blog/a` for `/blog/a` (the page itself is the folder of the pages below it).
  const folders =
    "arrayFilter(f -> f != '/', arrayMap(j -> arrayStringConcat(arraySlice(splitByChar('/', page), 1, j), '/'), range(2, length(splitByChar('/', page)) + 1)))";
  const expand = `if(name = 'pageview', arrayPushFront(arrayMap(f -> ('group', f), ${folders}), ('page', page)), [('event', page)])`;
  const perCandidate = `SELECT c.1 AS kind, name, c.2 AS page, count() AS pages, uniqMerge(seen) AS reached, max(finalizeAggregation(seen)) AS busiest FROM (SELECT name, arrayJoin(${expand}) AS c, seen FROM (${perStep})) GROUP BY kind, name, page`;
  const search = options.search === null ? '' : ` AND positionCaseInsensitiveUTF8(label, ${ctx.params.string(options.search)}) > 0`;
  return `SELECT kind, name, page, pages, ${scaled('reached', ctx)} AS visitors, ${CANDIDATE_LABEL_SQL} AS label FROM (${perCandidate}) WHERE (kind != 'group' OR (pages > 1 AND reached > busiest))${search} ORDER BY visitors DESC, label ASC LIMIT ${ctx.params.add(options.limit, 'UInt32')}`;
}
