import { describe, expect, it } from 'vitest';
import type { Filter } from '../context';
import { columnHeading, conversionMetrics } from './conversions';

const signup: Filter[] = [['is', 'event:goal', ['Signup']]];

// What the panels ask for and how they head it under a goal filter (conversions.ts).
describe('conversions under a goal filter', () => {
  it('keeps the panels’ own columns without a goal filter, and the goals’ own under one', () => {
    expect(conversionMetrics('visit:source', ['visitors', 'bounce_rate'], [], false)).toEqual(['visitors', 'bounce_rate']);
    expect(conversionMetrics('event:goal', ['visitors', 'events', 'conversion_rate'], signup, false)).toEqual(['visitors', 'events', 'conversion_rate']);
  });

  it('counts a visit breakdown’s rate within its rows and a property’s among all visitors', () => {
    expect(conversionMetrics('visit:source', ['visitors', 'bounce_rate'], signup, false)).toEqual(['visitors', 'group_conversion_rate']);
    expect(conversionMetrics('visit:source', ['visitors'], signup, true)).toEqual(['visitors', 'events', 'group_conversion_rate']);
    expect(conversionMetrics('event:props:plan', ['visitors', 'events'], signup, false)).toEqual(['visitors', 'events', 'conversion_rate']);
    expect(conversionMetrics('event:props:plan', ['visitors', 'events'], signup, true)).toEqual(['visitors', 'events', 'conversion_rate']);
    const heads = (dimension: string, metrics: string[]) => metrics.map((metric) => columnHeading(metric, signup, dimension));
    expect(heads('event:props:plan', ['visitors', 'events', 'conversion_rate'])).toEqual(['Conversions', 'Events', 'CR']);
    expect(heads('visit:source', ['visitors', 'group_conversion_rate'])).toEqual(['Conversions', 'CR']);
  });
});
