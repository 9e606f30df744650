import { JOURNEY_LIMITS, type JourneyFunnelStep, type JourneyStep, type JourneysResponse, journeysRequest } from '../../contracts/journeys.js';
import { isoWithOffset } from '../../time/localTime.js';
import { parseMetric } from '../metrics.js';
import type { CompileContext } from '../model.js';
import { resolveQuery } from '../plan/resolve.js';
import { expandSegments } from '../plan/segments.js';
import { loadSiteContext, statsSiteRefused } from '../plan/siteContext.js';
import { checkBody, parseRequest } from '../request/v2.js';
import { requireRawRows } from '../rollupReads/rawHorizon.js';
import { echoFilters, firstEventAt, type QueryEngineDeps } from '../run/engine.js';
import { teamStatements, toMetricValue } from '../run/execute.js';
import { chooseSampleRate, samplingMeta } from '../run/sampling.js';
import { SqlParams } from '../sqlParams.js';
import { candidatesStatement, funnelStatement, type JourneyShape } from './journeySql.js';
import { type CandidateKind, candidateStep, labelled, normalStep } from './steps.js';

/**
 * User journeys on the query engine (docs/explore.md): the request parsed (its site, range,
 * filters, segments and time zone exactly as POST /api/v2/query reads them), sampled as the
 * query API samples, and answered by two statements read side by side: the journey's funnel and
 * the candidates for its next step.
 */
export async function runJourneys(deps: QueryEngineDeps, teamId: number, body: unknown, viewerId: number | null = null): Promise<JourneysResponse> {
  const { steps: requested = [], direction = 'forward', candidates = JOURNEY_LIMITS.defaultCandidates, search, ...rest } = checkBody(journeysRequest, body);
  const parsed = parseRequest({ ...rest, metrics: ['visitors'] });
  const site = await loadSiteContext(deps.db, teamId, parsed.siteId, statsSiteRefused);
  const filters = await expandSegments(deps.db, site, parsed.filters, viewerId);
  const sql = teamStatements(deps.scheduler, teamId, deps.limits);
  const siteStart = parsed.dateRange === 'all' ? await firstEventAt(sql, site) : null;
  const q = resolveQuery({ ...parsed, filters }, { site, now: deps.now(), siteStart });
  requireRawRows(site, q.range.first, 'journeys');
  const sampleRate = q.exact ? null : await chooseSampleRate(sql, deps.limits, site, [q.range], deps.cluster, deps.eventCounts);
  const context = (): CompileContext => ({ q, params: new SqlParams(), range: q.range, sampleRate });
  const shape: JourneyShape = { steps: requested.map(normalStep), direction };

  const funnelContext = context();
  const candidatesContext = context();
  // With no steps there is no funnel; a sample still needs the events it read, for its warnings.
  const needsFunnel = shape.steps.length > 0 || sampleRate !== null;
  const [funnelRows, candidateRows] = await Promise.all([
    needsFunnel ? sql(funnelStatement(funnelContext, shape), funnelContext.params.values) : Promise.resolve([]),
    sql(candidatesStatement(candidatesContext, shape, { limit: candidates, search: search ?? null }), candidatesContext.params.values),
  ]);
  const totals = funnelRows[0] ?? {};
  const reached = shape.steps.map((_, j) => toMetricValue(totals[`s${j + 1}`]) ?? 0);
  return {
    funnel: journeyFunnel(shape.steps, reached),
    next: candidateRows.map((row) => ({
      step: candidateStep(row.kind as CandidateKind, String(row.name), String(row.page), toMetricValue(row.pages) ?? 0, String(row.label)),
      visitors: toMetricValue(row.visitors) ?? 0,
    })),
    meta: {
      sample_rate: sampleRate ?? 1,
      ...(sampleRate !== null ? { sampling: samplingMeta(sampleRate, ['visitors'], [parseMetric('visitors')!], toMetricValue(totals.events) ?? 0) } : {}),
    },
    query: {
      site_id: site.domain,
      date_range: [isoWithOffset(q.range.first, q.tz), isoWithOffset(q.range.last, q.tz)],
      filters: echoFilters(parsed),
      steps: shape.steps,
      direction,
      timezone: q.tz,
    },
  };
}

/** A percentage with at most two decimals; 0 of nothing. */
const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 100 : 0);

/** The journey step by step: who kept to it, who dropped off since the step before, and the rates. */
export function journeyFunnel(steps: JourneyStep[], reached: number[]): JourneyFunnelStep[] {
  const first = reached[0] ?? 0;
  return steps.map((step, j) => {
    const visitors = reached[j]!;
    const previous = j === 0 ? visitors : reached[j - 1]!;
    return {
      step: labelled(step),
      visitors,
      dropoff: previous - visitors,
      dropoff_percentage: percent(previous - visitors, previous),
      conversion_rate: percent(visitors, first),
      conversion_rate_step: percent(visitors, previous),
    };
  });
}
