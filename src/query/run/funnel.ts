import { z } from 'zod';
import { type FunnelReport, funnelRequest } from '../../contracts/funnels.js';
import { badRequest, notFound } from '../../errors.js';
import { goalCondition, isScrollGoal } from '../goals.js';
import type { CompileContext, FilterTree, Goal, ResolvedQuery } from '../model.js';
import { resolveQuery } from '../plan/resolve.js';
import { expandSegments } from '../plan/segments.js';
import { loadSiteContext } from '../plan/siteContext.js';
import { parseRequest } from '../request/v2.js';
import { requireRawRows } from '../rollupReads/rawHorizon.js';
import { filtersCondition } from '../sql/filters.js';
import { and, eventsBase, sessionsBase } from '../sql/tables.js';
import { SqlParams } from '../sqlParams.js';
import type { QueryEngineDeps } from './engine.js';
import { teamStatements, toMetricValue } from './execute.js';

/**
 * The funnel report on the same engine: of the visits the query's range and filters keep, how
 * many reached each goal step in order (ClickHouse windowFunnel over each visit's events; a
 * visitor counts at the furthest step any of their visits reached), with drop-off and
 * conversion between steps. Filters choose visits, never events, as Plausible's funnels read
 * them: a goal filter keeps the visits that converted on it, a page filter those that viewed the
 * page; the funnel then sees every event of those visits, or no step but the filtered one
 * could ever match.
 */

const WINDOW_SECONDS = 86_400;

export async function runFunnel(deps: QueryEngineDeps, teamId: number, body: unknown, viewerId: number | null = null): Promise<FunnelReport> {
  const request = funnelRequest.safeParse(body);
  if (!request.success) throw badRequest('invalid_query', `The funnel request is not valid: ${z.prettifyError(request.error)}`);
  const { funnel, ...rest } = request.data;
  const parsed = parseRequest({ ...rest, metrics: ['visitors'] });
  const site = await loadSiteContext(deps.db, teamId, parsed.siteId);
  const steps = await funnelSteps(deps, site.id, funnel, site.goals);
  const filters = await expandSegments(deps.db, site, parsed.filters, viewerId);
  const q = resolveQuery({ ...parsed, filters }, { site, now: deps.now(), siteStart: null });
  requireRawRows(site, q.range.first, 'funnel');
  const params = new SqlParams();
  const sql = compileFunnel(q, steps, params);
  const rows = await teamStatements(deps.scheduler, teamId, deps.limits)(sql, params.values);
  const byLevel = new Map(rows.map((row) => [toMetricValue(row.level) ?? 0, toMetricValue(row.visitors) ?? 0]));
  return shapeFunnel(funnel, steps, byLevel);
}

async function funnelSteps(deps: QueryEngineDeps, siteId: number, name: string, goals: Goal[]): Promise<Goal[]> {
  const rows = await deps.db
    .selectFrom('funnels')
    .innerJoin('funnel_steps', 'funnel_steps.funnel_id', 'funnels.id')
    .innerJoin('goals', 'goals.id', 'funnel_steps.goal_id')
    .select(['goals.display_name', 'funnel_steps.step_order'])
    .where('funnels.site_id', '=', siteId)
    .where('funnels.name', '=', name)
    .orderBy('funnel_steps.step_order')
    .execute();
  if (rows.length === 0) throw notFound(`There is no funnel "${name}" on this site.`);
  return rows.map((row) => goals.find((goal) => goal.displayName === row.display_name)!);
}

export function compileFunnel(q: ResolvedQuery, steps: Goal[], params: SqlParams): string {
  const ctx = { q, params, range: q.range, sampleRate: null };
  const conditions = steps.map((goal) => goalCondition(goal, params));
  const where = and(eventsBase(ctx, { engagement: steps.some(isScrollGoal) }));
  // The visit ids are read first, the other columns only for the rows that pass (as compile.ts's sides do).
  const kept = q.filters.length ? ` PREWHERE session_id IN (${keptVisits(q.filters, ctx)})` : '';
  const perVisit = `SELECT user_id, windowFunnel(${WINDOW_SECONDS})(timestamp, ${conditions.join(', ')}) AS level FROM events${kept} WHERE ${where} GROUP BY user_id, session_id`;
  const perVisitor = `SELECT user_id, max(level) AS level FROM (${perVisit}) GROUP BY user_id`;
  return `SELECT level, count() AS visitors FROM (${perVisitor}) GROUP BY level`;
}

/** The visits the filters keep: on the visits' table, an event filter keeps the visits with a matching event (src/query/sql/filters.ts). */
function keptVisits(filters: FilterTree[], ctx: CompileContext): string {
  return `SELECT session_id FROM sessions WHERE ${and([...sessionsBase(ctx), ...filtersCondition(filters, 'sessions', ctx)])} GROUP BY session_id HAVING sum(sign) > 0`;
}

/** Percentages as the reference shows them: two decimals, `.00` dropped. */
const percent = (part: number, whole: number) => (whole > 0 ? ((part / whole) * 100).toFixed(2).replace(/\.00$/, '') : '0');

export function shapeFunnel(name: string, steps: Goal[], visitorsByLevel: Map<number, number>): FunnelReport {
  const all = [...visitorsByLevel.values()].reduce((sum, n) => sum + n, 0);
  // Visitors reaching step k are those whose furthest step is k or later.
  const reached = steps.map((_, k) => [...visitorsByLevel].filter(([level]) => level >= k + 1).reduce((sum, [, n]) => sum + n, 0));
  const entering = reached[0] ?? 0;
  return {
    name,
    steps: steps.map((goal, k) => {
      const previous = k === 0 ? entering : reached[k - 1]!;
      const visitors = reached[k]!;
      return {
        label: goal.displayName,
        visitors,
        conversion_rate: percent(visitors, entering),
        conversion_rate_step: k === 0 ? '0' : percent(visitors, previous),
        dropoff: previous - visitors,
        dropoff_percentage: percent(previous - visitors, previous),
      };
    }),
    all_visitors: all,
    entering_visitors: entering,
    entering_visitors_percentage: percent(entering, all),
    never_entering_visitors: all - entering,
    never_entering_visitors_percentage: percent(all - entering, all),
  };
}
