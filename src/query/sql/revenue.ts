import { type ExchangeRates, multipliersInto } from '../exchangeRates.js';
import { goalCondition, goalsInFilters } from '../goals.js';
import type { Goal, ResolvedQuery, RevenuePlan } from '../model.js';
import type { SqlParams } from '../sqlParams.js';

/** Goals the query is about: those its top-level goal filters select, else all of the site's. */
export function goalsInPlay(q: ResolvedQuery): Goal[] {
  const goalFilters = q.filters.filter((f) => 'dimension' in f && f.dimension === 'event:goal' && !f.op.endsWith('_not'));
  return goalFilters.length ? goalsInFilters(goalFilters, q.site.goals) : q.site.goals;
}

export function planRevenue(q: ResolvedQuery, params: SqlParams, rates: ExchangeRates, goalColumn: string | null): RevenuePlan {
  const revenueGoals = goalsInPlay(q).filter((goal) => goal.currency !== null);
  if (revenueGoals.length === 0) {
    return { kind: 'unavailable', code: 'no_revenue_goals_matching', warning: 'Revenue metrics are null because no revenue goal matches this query.' };
  }
  const amount = (condition: string, multiplier: string) => ({
    amount: `if((${condition}) AND isNotNull(revenue_source_amount) AND ${multiplier} > 0, toFloat64(revenue_source_amount) * ${multiplier}, NULL)`,
    missingRate: `countIf((${condition}) AND isNotNull(revenue_source_amount) AND ${multiplier} <= 0)`,
  });
  if (goalColumn !== null) {
    const names = params.strings(revenueGoals.map((goal) => goal.displayName));
    const goalCurrency = `transform(${goalColumn}, ${names}, ${params.strings(revenueGoals.map((goal) => goal.currency!))}, '')`;
    const keys: string[] = [];
    const values: number[] = [];
    for (const currency of new Set(revenueGoals.map((goal) => goal.currency!))) {
      const { from, multipliers } = multipliersInto(rates, currency);
      from.forEach((source, i) => {
        keys.push(`${currency}>${source}`);
        values.push(multipliers[i]!);
      });
    }
    const multiplier = `transform(concat(${goalCurrency}, '>', revenue_source_currency), ${params.strings(keys)}, ${params.add(values, 'Array(Float64)')}, -1.)`;
    return {
      kind: 'converted',
      ...amount(`${goalCurrency} != ''`, multiplier),
      currency: Object.fromEntries(revenueGoals.map((goal) => [goal.displayName, goal.currency!])),
      rowIsRevenue: `${goalCurrency} != ''`,
    };
  }
  const currencies = [...new Set(revenueGoals.map((goal) => goal.currency!))];
  if (currencies.length > 1) {
    return {
      kind: 'unavailable',
      code: 'no_single_revenue_currency',
      warning: `Revenue metrics are null because the matching revenue goals use several currencies (${currencies.join(', ')}); filter or group by event:goal.`,
    };
  }
  const { from, multipliers } = multipliersInto(rates, currencies[0]!);
  const multiplier = `transform(revenue_source_currency, ${params.strings(from)}, ${params.add(multipliers, 'Array(Float64)')}, -1.)`;
  const condition = revenueGoals.map((goal) => goalCondition(goal, params)).join(' OR ');
  return { kind: 'converted', ...amount(condition, multiplier), currency: currencies[0]!, rowIsRevenue: null };
}
