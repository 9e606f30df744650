import { METRIC_DESCRIPTIONS, type MetricName } from '@contracts/metrics';
import type { Filter, SiteInfo } from './context';

export interface TopMetric {
  metric: string;
  label: string;
  lowerIsBetter?: boolean;
}

/** A headline under the registry's own label (src/contracts/metrics.ts). */
const headline = (metric: MetricName, lowerIsBetter?: true): TopMetric => ({
  metric,
  label: METRIC_DESCRIPTIONS[metric].label,
  ...(lowerIsBetter && { lowerIsBetter }),
});

const TOP_METRICS: TopMetric[] = [
  headline('visitors'),
  headline('visits'),
  headline('pageviews'),
  headline('views_per_visit'),
  headline('bounce_rate', true),
  headline('visit_duration'),
];

// Beside a page filter, as Plausible's: a whole visit's figures say little of one page, so views
// per visit (which the engine refuses there) and visit duration give way to the page's own time
// and scroll depth.
const PAGE_METRICS: TopMetric[] = [
  headline('visitors'),
  headline('visits'),
  headline('pageviews'),
  headline('bounce_rate', true),
  headline('time_on_page'),
  headline('scroll_depth'),
];

/**
 * Whether a page filter stands at the top of the filters, where the engine measures time on page
 * and scroll depth by it (src/query/metrics.ts): not inside "did view" or an "or".
 */
const filtersPage = (filters: Filter[]) => filters.some((f) => f[1] === 'event:page' && Array.isArray(f[2]));

// With a goal chosen, its visitors and events are its conversions, as Plausible calls them.
const GOAL_METRICS: TopMetric[] = [
  { metric: 'visitors', label: 'Unique conversions' },
  { metric: 'events', label: 'Total conversions' },
  headline('conversion_rate'),
];
const REVENUE_METRICS: TopMetric[] = [headline('total_revenue'), headline('average_revenue')];

/**
 * The headline numbers for the filters: with a goal chosen they are the goal's, as in Plausible
 * (conversions, their rate, and revenue in the goal's currency when it has one); with a page
 * chosen, the page's.
 */
export function headlinesFor(filters: Filter[], site: SiteInfo): { list: TopMetric[]; currency?: string } {
  const goalFilter = filters.find((f) => f[1] === 'event:goal' && (f[0] === 'is' || f[0] === 'contains' || f[0] === 'matches'));
  if (!goalFilter) return { list: filtersPage(filters) ? PAGE_METRICS : TOP_METRICS };
  const names = Array.isArray(goalFilter[2]) ? goalFilter[2].map(String) : [];
  const currencies = new Set(site.goals.filter((goal) => names.includes(goal.display_name) && goal.currency).map((goal) => goal.currency));
  const [currency] = currencies;
  // Revenue adds up only in one currency (the engine says null otherwise).
  return goalFilter[0] === 'is' && currencies.size === 1 && currency ? { list: [...GOAL_METRICS, ...REVENUE_METRICS], currency } : { list: GOAL_METRICS };
}
