import { dimensionKind, type Interval } from '../catalog.js';
import { goalCondition, goalDimensionGoals } from '../goals.js';
import type { CompileContext } from '../model.js';

/**
 * Dimension SQL shared by every source of rows (events, sessions, imported daily tables), so a
 * group reads the same whichever source it came from and the sources' rows can be merged on it.
 */

/** A session row's column for a dimension it carries under another name (raw and rolled-up sides group by these). */
export const SESSION_DIMENSION_SUBSTITUTES: Record<string, string> = { 'event:page': 'entry_page', 'event:hostname': 'hostname' };

/** A grouped key as the report labels it. */
export function dimensionLabel(ctx: CompileContext, dimension: string, key: string): string {
  const { params, q } = ctx;
  const kind = dimensionKind(dimension)!;
  switch (kind.kind) {
    case 'column':
      return kind.def.emptyLabel === null ? `toString(${key})` : `if(${key} = '', ${params.string(kind.def.emptyLabel)}, toString(${key}))`;
    case 'prop':
      return `if(${key} = '', '(none)', ${key})`;
    case 'goal':
      return key;
    case 'time':
      if (kind.interval === 'minute') return `formatDateTime(${key}, '%Y-%m-%d %H:%i:00', ${params.string(q.tz)})`;
      if (kind.interval === 'hour') return `formatDateTime(${key}, '%Y-%m-%d %H:00:00', ${params.string(q.tz)})`;
      return `toString(${key})`;
  }
}

/**
 * The stored keys a column dimension's labels stand for (dimensionLabel's inverse): each label
 * itself, and the empty value where a label is the empty label. A value spelled like the empty
 * label stands for both, so the keys may hold a group more than the labels, never fewer.
 */
export function labelKeys(dimension: string, labels: string[]): string[] {
  const kind = dimensionKind(dimension);
  const empty = kind?.kind === 'column' ? kind.def.emptyLabel : null;
  return [...new Set(labels.flatMap((label) => (label === empty ? [label, ''] : [label])))];
}

/** The day, week or month bucket of a local day; the first week starts on the range's first day. */
export function dayBucket(ctx: CompileContext, interval: Exclude<Interval, 'minute' | 'hour'>, day: string): string {
  const { params, q } = ctx;
  if (interval === 'week') return `greatest(toMonday(${day}), toDate(${params.instant(ctx.range.first)}, ${params.string(q.tz)}))`;
  if (interval === 'month') return `toStartOfMonth(${day})`;
  return day;
}

/** A goal breakdown's key: each row once per listed goal it reached (rows reaching none drop out). */
export function goalKey(ctx: CompileContext): string {
  const { params } = ctx;
  const goals = goalDimensionGoals(ctx.q);
  if (goals.length === 0) return "arrayJoin(CAST([], 'Array(String)'))";
  const labels = goals.map((goal) => `if(${goalCondition(goal, params)}, ${params.string(goal.displayName)}, '')`);
  return `arrayJoin(arrayFilter(goal -> goal != '', [${labels.join(', ')}]))`;
}
