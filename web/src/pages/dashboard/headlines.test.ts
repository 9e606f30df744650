import { describe, expect, it } from 'vitest';
import type { Filter, SiteInfo } from './context';
import { headlinesFor } from './headlines';

const site = { goals: [{ display_name: 'Purchase', currency: 'EUR' }] } as unknown as SiteInfo;
const metrics = (filters: Filter[]) => headlinesFor(filters, site).list.map((m) => m.metric);

// Which headlines the top stats show beside the filters (headlines.ts).
describe('the top stats’ headlines', () => {
  it('are the visit figures without filters', () => {
    expect(metrics([])).toEqual(['visitors', 'visits', 'pageviews', 'views_per_visit', 'bounce_rate', 'visit_duration']);
  });

  it('are the page’s time and scroll depth beside a page filter at the top', () => {
    const page = ['visitors', 'visits', 'pageviews', 'bounce_rate', 'time_on_page', 'scroll_depth'];
    expect(metrics([['is', 'event:page', ['/pricing']]])).toEqual(page);
    expect(
      metrics([
        ['is', 'visit:country', ['DE']],
        ['contains', 'event:page', ['/blog']],
      ]),
    ).toEqual(page);
    // A visit that viewed a page keeps its whole-visit figures: the engine measures no page there.
    expect(metrics([['has_done', ['is', 'event:page', ['/pricing']]]])).toContain('visit_duration');
  });

  it('are the goal’s beside a goal filter, page or not', () => {
    expect(
      metrics([
        ['is', 'event:goal', ['Purchase']],
        ['is', 'event:page', ['/']],
      ]),
    ).toEqual(['visitors', 'events', 'conversion_rate', 'total_revenue', 'average_revenue']);
  });
});
