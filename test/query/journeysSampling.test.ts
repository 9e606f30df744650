import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureEvent, insertEvents } from '../support/eventFixtures.js';
import { ManualClock } from '../support/manualClock.js';
import { type Account, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { journeysAnswer } from './journeysClient.js';

/** 300 visitors who each viewed / then /pricing on 8 January; sampling starts above 100 events. */
let t: TestApp;
let account: Account;

beforeAll(async () => {
  t = await startTestApp({ clock: new ManualClock(Date.parse('2024-01-10T12:00:00Z')), env: { QUERY_SAMPLING_THRESHOLD: '100' } });
  account = await createAccount(t.app);
  const events: FixtureEvent[] = [];
  for (let i = 0; i < 300; i++) {
    events.push({ visitor: `v${i}`, at: '2024-01-08 10:00:00', page: '/' }, { visitor: `v${i}`, at: '2024-01-08 10:01:00', page: '/pricing' });
  }
  await insertEvents(t.app, account.siteId, events);
});
afterAll(() => t.close());

const journeys = (body: Record<string, unknown>) =>
  journeysAnswer(t.url, account.key, { site_id: account.domain, date_range: ['2024-01-08', '2024-01-08'], steps: [{ page: '/' }], ...body });

describe('journeys on a large site', () => {
  it('samples above the threshold, scales the visitors and says so', async () => {
    const sampled = await journeys({});
    // 600 events over a threshold of 100: a sixth of the visitors, rounded down.
    expect(sampled.meta).toMatchObject({ sample_rate: 0.16, sampling: { rate: 0.16, scaled_metrics: ['visitors'], direct_metrics: [] } });
    const reached = sampled.funnel[0].visitors;
    expect(reached).toBeGreaterThan(150);
    expect(reached).toBeLessThan(450);
    expect(sampled.next).toEqual([{ step: { page: '/pricing', label: '/pricing' }, visitors: reached }]);
    // The same visitors every time.
    expect((await journeys({})).funnel).toEqual(sampled.funnel);
  });

  it('reads everything when exact, and samples with no steps too', async () => {
    const exact = await journeys({ exact: true });
    expect(exact.meta).toEqual({ sample_rate: 1 });
    expect(exact.funnel[0].visitors).toBe(300);
    expect(exact.next).toEqual([{ step: { page: '/pricing', label: '/pricing' }, visitors: 300 }]);
    const overview = await journeys({ steps: [] });
    expect(overview.funnel).toEqual([]);
    expect(overview.meta.sampling.rate).toBe(0.16);
    expect(overview.next.map((row: any) => row.step.label)).toEqual(['/', '/pricing']);
  });
});
