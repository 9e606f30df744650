import { metricHeading } from '../../../format';
import type { Filter } from '../context';

/**
 * With a goal filtered, every panel counts conversions as Plausible's does (its stats controller's
 * breakdown metrics): the visitors who reached the goal ("Conversions") and the share of all
 * visitors with the row's value who did (the group conversion rate, headed "CR"). The goals
 * panel keeps its own columns. A custom property's rows have no visitors of their own beside a
 * goal (the property lives on the goal's events), so their CR is the share of all the range's
 * visitors (the engine's `conversion_rate`), as Plausible's properties breakdown counts it.
 */

/**
 * The goals a top-level `is` filter chooses (the conversions the panels then count). As in the
 * reference, only a top-level one: "visits that reached a goal" keeps whole visits, whose rows
 * the panels count as usual (and the engine has no conversion rate beside it).
 */
export function filteredGoals(filters: readonly Filter[]): string[] {
  return filters.flatMap((filter) => (filter[0] === 'is' && filter[1] === 'event:goal' && Array.isArray(filter[2]) ? filter[2].map(String) : []));
}

/** The conversion rate a breakdown's rows show beside a goal filter. */
const conversionRateOf = (dimension: string) => (dimension.startsWith('event:props:') ? 'conversion_rate' : 'group_conversion_rate');

/**
 * A panel's columns under the view's filters: conversions and their rate once a goal is filtered
 * (a property's rows keep their events too: its events are the goal's completions).
 */
export function conversionMetrics(dimension: string, metrics: string[], filters: readonly Filter[], details: boolean): string[] {
  if (dimension === 'event:goal' || filteredGoals(filters).length === 0) return metrics;
  const events = details || dimension.startsWith('event:props:') ? ['events'] : [];
  return ['visitors', ...events, conversionRateOf(dimension)];
}

/** A column's heading: visitors are the conversions once a goal is filtered. */
export function columnHeading(metric: string, filters: readonly Filter[], dimension: string): string {
  if (dimension === 'event:goal' || filteredGoals(filters).length === 0) return metricHeading(metric);
  if (metric === 'visitors') return 'Conversions';
  return metric === conversionRateOf(dimension) ? 'CR' : metricHeading(metric);
}

/**
 * The property a filtered special goal is about, as Plausible's properties panel switches to it:
 * the link of an outbound link, cloaked link or file download, the path of a 404.
 */
const SPECIAL_GOAL_PROPERTIES: Record<string, string> = {
  'Outbound Link: Click': 'url',
  'Cloaked Link: Click': 'url',
  'File Download': 'url',
  '404': 'path',
};

export function specialGoalProperty(filters: readonly Filter[], goals: readonly { display_name: string; event_name: string | null }[]): string | null {
  for (const name of filteredGoals(filters)) {
    const event = goals.find((goal) => goal.display_name === name)?.event_name;
    const property = event ? SPECIAL_GOAL_PROPERTIES[event] : undefined;
    if (property) return property;
  }
  return null;
}
