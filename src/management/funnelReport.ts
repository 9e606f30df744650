import type { ClickHouseClient } from '@clickhouse/client';
import { badRequest } from '../errors.js';
import type { Goal } from '../stores/meta/goals.js';

/**
 * The funnel report: how many visitors reached each step, in order, within one visit. A visit
 * reaches step k when its events satisfy steps 1..k in that order (ClickHouse `windowFunnel`
 * over the visit's events); a visitor counts at step k if any of their visits reached it.
 */
export interface FunnelStepResult {
  goal_id: number;
  display_name: string;
  visitors: number;
  /** Percent of the first step's visitors, 2 decimals. */
  conversion_rate: number;
  /** Percent of the previous step's visitors (100 for the first step). */
  conversion_rate_step: number;
  /** Visitors of the previous step who did not reach this one (0 for the first step). */
  dropoff: number;
  dropoff_percentage: number;
}

/** `*` matches within one path segment, `**` across segments; everything else literally. */
export function pathPatternRegex(pattern: string): string {
  const parts = pattern.split('**').map((part) =>
    part
      .split('*')
      .map((literal) => literal.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]*'),
  );
  return `^${parts.join('.*')}$`;
}

/** The SQL condition that an event completes a goal; values travel as query parameters. */
export function goalCondition(goal: Goal, index: number): { sql: string; params: Record<string, unknown> } {
  const p = `g${index}`;
  if (goal.eventName !== null) return { sql: `name = {${p}_name:String}`, params: { [`${p}_name`]: goal.eventName } };
  const path = { [`${p}_path`]: pathPatternRegex(goal.pagePath ?? '/') };
  if (goal.scrollThreshold >= 0) {
    // 255 marks "not measured", so the upper bound also keeps those out.
    return {
      sql: `name = 'engagement' AND scroll_depth BETWEEN {${p}_depth:UInt8} AND 100 AND match(pathname, {${p}_path:String})`,
      params: { ...path, [`${p}_depth`]: goal.scrollThreshold },
    };
  }
  return { sql: `name = 'pageview' AND match(pathname, {${p}_path:String})`, params: path };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const round2 = (value: number) => Math.round(value * 100) / 100;
const percent = (part: number, whole: number) => (whole > 0 ? round2((part / whole) * 100) : 0);

/** Turns cumulative step counts into the report rows. */
export function funnelSteps(goals: Goal[], visitors: number[]): FunnelStepResult[] {
  const first = visitors[0] ?? 0;
  return goals.map((goal, i) => {
    const here = visitors[i] ?? 0;
    const previous = i === 0 ? here : (visitors[i - 1] ?? 0);
    return {
      goal_id: goal.id,
      display_name: goal.displayName,
      visitors: here,
      conversion_rate: percent(here, first),
      conversion_rate_step: i === 0 ? (here > 0 ? 100 : 0) : percent(here, previous),
      dropoff: previous - here,
      dropoff_percentage: i === 0 ? 0 : percent(previous - here, previous),
    };
  });
}

/**
 * Runs the report for whole days `from`..`to` (inclusive) in the site's time zone. Classified
 * events (bots, spam, …) count only when the site put their reason back into reports.
 */
export async function funnelReport(
  client: ClickHouseClient,
  input: { siteId: number; timezone: string; goals: Goal[]; from: string; to: string; includedClassifications: string[] },
): Promise<FunnelStepResult[]> {
  if (!DAY.test(input.from) || !DAY.test(input.to) || Number.isNaN(Date.parse(input.from)) || Number.isNaN(Date.parse(input.to)) || input.from > input.to) {
    throw badRequest('invalid_date_range', 'Give "from" and "to" as dates (YYYY-MM-DD), "from" not after "to".');
  }
  const conditions = input.goals.map(goalCondition);
  const stepColumns = input.goals.map((_, i) => `uniqExactIf(user_id, level >= ${i + 1}) AS step_${i + 1}`).join(', ');
  const query = `
    SELECT ${stepColumns}
    FROM (
      SELECT session_id, any(user_id) AS user_id, windowFunnel(86400)(timestamp, ${conditions.map((c) => `(${c.sql})`).join(', ')}) AS level
      FROM events
      WHERE site_id = {site_id:UInt64}
        AND timestamp >= toDateTime(toDate({from:String}), {tz:String})
        AND timestamp < toDateTime(toDate({to:String}) + 1, {tz:String})
        AND classification IN {classifications:Array(String)}
      GROUP BY session_id
    )
    SETTINGS max_execution_time = 60, readonly = 2`;
  const result = await client.query({
    query,
    format: 'JSONEachRow',
    query_params: {
      site_id: input.siteId,
      from: input.from,
      to: input.to,
      tz: input.timezone,
      classifications: ['', ...input.includedClassifications],
      ...Object.assign({}, ...conditions.map((c) => c.params)),
    },
  });
  const [row] = await result.json<Record<string, string | number>>();
  return funnelSteps(
    input.goals,
    input.goals.map((_, i) => Number(row?.[`step_${i + 1}`] ?? 0)),
  );
}
