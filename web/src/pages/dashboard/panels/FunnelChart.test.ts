import { describe, expect, it } from 'vitest';
import { stepShares } from './FunnelChart';

// How the funnel chart sizes its bars (FunnelChart.tsx).
describe('the funnel chart’s bars', () => {
  const step = (visitors: number, dropoff: number) => ({
    label: `${visitors}`,
    visitors,
    dropoff,
    conversion_rate: '0',
    conversion_rate_step: '0',
    dropoff_percentage: '0',
  });

  it('sizes each step against the first, with the losses from the step before above it', () => {
    expect(stepShares([step(200, 0), step(50, 150), step(10, 40)])).toEqual([
      { reached: 1, dropped: 0 },
      { reached: 0.25, dropped: 0.75 },
      { reached: 0.05, dropped: 0.2 },
    ]);
    expect(stepShares([step(0, 0), step(0, 0)])).toEqual([
      { reached: 0, dropped: 0 },
      { reached: 0, dropped: 0 },
    ]);
  });
});
