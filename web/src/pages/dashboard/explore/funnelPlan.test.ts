import type { Goal } from '@contracts/goals';
import { describe, expect, it } from 'vitest';
import { funnelPlan } from './funnelPlan';

const pricingGoal: Goal = {
  id: 7,
  goal_type: 'page',
  event_name: null,
  page_path: '/pricing',
  scroll_threshold: -1,
  display_name: 'Pricing page',
  currency: null,
  custom_props: {},
  domain: 'example.com',
};
const goals = (plan: ReturnType<typeof funnelPlan>) => plan.steps.map((s) => s.goal);

// How Save as funnel turns a journey into the funnels API's goals (funnelPlan.ts).
describe('a journey saved as a funnel', () => {
  it('keeps a forward journey’s order and reverses a backward one, finding the goals the site has', () => {
    const steps = [{ page: '/pricing' }, { page: '/signup' }];
    const forward = funnelPlan(steps, 'forward', [pricingGoal]);
    expect(forward.problems).toEqual([]);
    expect(goals(forward)).toEqual([
      { goal_type: 'page', page_path: '/pricing' },
      { goal_type: 'page', page_path: '/signup' },
    ]);
    expect(forward.steps.map((s) => s.existing?.id ?? null)).toEqual([7, null]);
    // Read backward, "/signup" then what came before it: in time order, /pricing first.
    const backward = funnelPlan([{ page: '/signup' }, { page: '/pricing' }], 'backward', []);
    expect(goals(backward)).toEqual(goals(forward));
  });

  it('says why a journey too short, too long or passing a page twice cannot be one', () => {
    expect(funnelPlan([{ page: '/' }], 'forward', []).problems).toEqual(['A funnel needs at least 2 steps: choose a step in the next column first.']);
    const nine = Array.from({ length: 9 }, (_, i) => ({ page: `/${i}` }));
    expect(funnelPlan(nine, 'forward', []).problems).toEqual([
      'A funnel holds at most 8 steps and this journey has 9: choose a step in an earlier column to shorten it.',
    ]);
    expect(funnelPlan([{ page: '/' }, { page: '/pricing' }, { page: '/' }], 'forward', []).problems).toEqual([
      'Two steps would both be the goal “Visit /”: each step of a funnel is a different goal.',
    ]);
  });

  it('refuses an event kept to one page unless it is counted on any page', () => {
    const steps = [{ page: '/pricing' }, { event: 'Signup', page: '/pricing' }];
    const refused = funnelPlan(steps, 'forward', []);
    expect(refused.problems).toEqual([
      'A goal counts an event on any page, so a funnel cannot keep “Signup on /pricing” to one page. Count it on any page, or choose other steps.',
    ]);
    expect(refused.eventsOnPages).toEqual([{ event: 'Signup', page: '/pricing' }]);
    const agreed = funnelPlan(steps, 'forward', [], true);
    expect(agreed.problems).toEqual([]);
    expect(goals(agreed)).toEqual([
      { goal_type: 'page', page_path: '/pricing' },
      { goal_type: 'event', event_name: 'Signup' },
    ]);
    // The same event on two pages is one goal: it cannot be two steps.
    const twice = funnelPlan([{ event: 'Signup', page: '/a' }, { page: '/b' }, { event: 'Signup', page: '/c' }], 'forward', [], true);
    expect(twice.problems).toEqual(['Two steps would both be the goal “Signup”: each step of a funnel is a different goal.']);
  });

  it('says what a folder’s goal counts', () => {
    const plan = funnelPlan([{ page: '/blog/**' }, { page: '/**' }, { page: '/signup' }], 'forward', []);
    expect(plan.problems).toEqual([]);
    expect(goals(plan)[0]).toEqual({ goal_type: 'page', page_path: '/blog/**' });
    expect(plan.notes).toEqual(['/blog/** becomes the page goal /blog/**, which counts the pages below /blog but not /blog itself.']);
  });
});
