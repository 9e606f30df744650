import { badRequest } from '../errors.js';
import type { FilterTree, Goal, ResolvedQuery } from './model.js';
import type { SqlParams } from './sqlParams.js';

/**
 * Goals as conditions on event rows: an event goal matches its event name; a page goal a
 * pageview on a path (with `*` wildcards); a scroll goal an engagement on that path that
 * scrolled at least the threshold.
 */

/** `*` matches any run of characters (including `/`); everything else is literal. */
export function pathPattern(path: string): string {
  const escaped = path
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return `^${escaped.replace(/(\.\*)+/g, '.*')}$`;
}

export function goalCondition(goal: Goal, params: SqlParams): string {
  if (goal.eventName !== null) return `name = ${params.string(goal.eventName)}`;
  const path = goal.pagePath ?? '';
  const pathMatch = path.includes('*') ? `match(pathname, ${params.string(pathPattern(path))})` : `pathname = ${params.string(path)}`;
  if (goal.scrollThreshold >= 0) {
    return `(name = 'engagement' AND scroll_depth BETWEEN ${params.add(goal.scrollThreshold, 'UInt8')} AND 100 AND ${pathMatch})`;
  }
  return `(name = 'pageview' AND ${pathMatch})`;
}

/** The columns a goal condition reads, scroll goals aside: a roll-up with both as keys answers it (src/query/rollupReads/). */
export const GOAL_COLUMNS: readonly string[] = ['name', 'pathname'];

export const isScrollGoal = (goal: Goal) => goal.eventName === null && goal.scrollThreshold >= 0;

type GoalLeaf = Extract<FilterTree, { values: string[] }>;

/** Goals a goal-filter leaf selects by display name (its positive operator: `is_not X` selects X). */
export function selectGoals(leaf: GoalLeaf, goals: Goal[]): Goal[] {
  const fold = (text: string) => (leaf.caseSensitive ? text : text.toLowerCase());
  const values = leaf.values.map(fold);
  const positive = leaf.op.replace(/_not$/, '');
  if (positive === 'is') {
    for (const value of leaf.values) {
      if (!goals.some((goal) => fold(goal.displayName) === fold(value))) {
        // The reference's sentences (a page goal is named "Visit <path>"), then what is configured.
        const missing = value.startsWith('Visit ') ? `The pageview goal for the pathname \`${value.slice(6)}\`` : `The goal \`${value}\``;
        throw badRequest(
          'unknown_goal',
          `${missing} is not configured for this site. Configured goals: ${goals.map((g) => g.displayName).join(', ') || 'none'}.`,
        );
      }
    }
    return goals.filter((goal) => values.includes(fold(goal.displayName)));
  }
  if (positive === 'contains') return goals.filter((goal) => values.some((value) => fold(goal.displayName).includes(value)));
  const patterns = leaf.values.map((value) => new RegExp(value.replace(/^\(\?[imsU]+\)/, ''), leaf.caseSensitive ? '' : 'i'));
  return goals.filter((goal) => patterns.some((pattern) => pattern.test(goal.displayName)));
}

/** Every goal a filter tree mentions, with the goals a `event:goal` dimension adds. */
export function goalsInFilters(filters: FilterTree[], goals: Goal[]): Goal[] {
  const found = new Set<Goal>();
  const visit = (tree: FilterTree) => {
    if ('dimension' in tree) {
      if (tree.dimension === 'event:goal') selectGoals(tree, goals).forEach((goal) => found.add(goal));
    } else if ('children' in tree) tree.children.forEach(visit);
    else visit(tree.child);
  };
  filters.forEach(visit);
  return [...found];
}

/** Goals a goal breakdown lists: those the top-level goal filters pick, else every goal of the site. */
export function goalDimensionGoals(q: ResolvedQuery): Goal[] {
  if (!q.dimensions.includes('event:goal')) return [];
  const goalFilters = q.filters.filter((f) => 'dimension' in f && f.dimension === 'event:goal' && !f.op.endsWith('_not'));
  return goalFilters.length ? goalsInFilters(goalFilters, q.site.goals) : q.site.goals;
}
