import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureEvent, insertEvents } from '../support/eventFixtures.js';
import { ManualClock } from '../support/manualClock.js';
import { type Account, bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { importPlausibleExport } from './plausibleExport.js';

/** 300 visitors with one pageview each on 8 Jan and 100 on 7 Jan; sampling starts above 100 events. */
let t: TestApp;
let account: Account;

beforeAll(async () => {
  t = await startTestApp({ clock: new ManualClock(Date.parse('2024-01-10T12:00:00Z')), env: { QUERY_SAMPLING_THRESHOLD: '100' } });
  account = await createAccount(t.app);
  const events: FixtureEvent[] = [];
  for (let i = 0; i < 300; i++) events.push({ visitor: `v${i}`, at: '2024-01-08 10:00:00', page: i < 3 ? '/rare' : '/' });
  for (let i = 0; i < 100; i++) events.push({ visitor: `w${i}`, at: '2024-01-07 10:00:00' });
  await insertEvents(t.app, account.siteId, events);
});
afterAll(() => t.close());

async function ok(body: Record<string, unknown>) {
  const res = await fetch(`${t.url}/api/v2/query`, {
    method: 'POST',
    headers: { ...bearer(account.key), 'content-type': 'application/json' },
    body: JSON.stringify({ site_id: account.domain, ...body }),
  });
  const json = (await res.json()) as any;
  if (res.status !== 200) throw new Error(JSON.stringify(json));
  return json;
}

const DAY = ['2024-01-08', '2024-01-08'];

describe('sampling', () => {
  it('samples above the threshold, scales totals and discloses it', async () => {
    const body = await ok({ metrics: ['visitors', 'pageviews', 'bounce_rate'], date_range: DAY });
    expect(body.meta.sample_rate).toBe(0.33);
    expect(body.meta.sampling).toMatchObject({ rate: 0.33, scaled_metrics: ['visitors', 'pageviews'], direct_metrics: ['bounce_rate'] });
    const [visitors, pageviews, bounceRate] = body.results[0].metrics;
    expect(visitors).toBeGreaterThan(150);
    expect(visitors).toBeLessThan(450);
    expect(pageviews).toBe(visitors);
    expect(bounceRate).toBe(100);
    // Deterministic: the same visitors are read every time.
    expect((await ok({ metrics: ['visitors', 'pageviews', 'bounce_rate'], date_range: DAY })).results).toEqual(body.results);
  });

  it('reads everything when the query is exact or under the threshold', async () => {
    const exact = await ok({ metrics: ['visitors'], date_range: DAY, exact: true });
    expect(exact.results[0].metrics).toEqual([300]);
    expect(exact.meta.sample_rate).toBe(1);
    expect(exact.meta.sampling).toBeUndefined();
    expect((await ok({ metrics: ['visitors'], date_range: ['2024-01-07', '2024-01-07'] })).results[0].metrics).toEqual([100]);
  });

  it('uses one rate for the primary and comparison periods', async () => {
    const body = await ok({ metrics: ['visitors'], date_range: DAY, include: { comparisons: { mode: 'previous_period' } } });
    // 400 events across both periods.
    expect(body.meta.sample_rate).toBe(0.25);
    expect(body.results[0].comparison.metrics[0]).toBeGreaterThan(0);
  });

  it('scales the sampled native side before imported totals are added to it', async () => {
    // The hand-written import (1–2 January): 17 visitors, 20 visits, 10 bounces.
    expect(await importPlausibleExport(t, account)).toMatchObject({ status: 'completed' });
    const body = await ok({ metrics: ['visitors', 'bounce_rate'], date_range: ['2024-01-01', '2024-01-08'], include: { imports: true } });
    expect(body.meta).toMatchObject({ sample_rate: 0.25, imports_included: true });
    const [visitors, bounceRate] = body.results[0].metrics;
    // Native: about 400 one-page visits, all bounced; unscaled, 100 of them would weigh too little.
    expect(visitors).toBeGreaterThan(150 + 17);
    expect(visitors).toBeLessThan(650 + 17);
    expect(bounceRate).toBeGreaterThanOrEqual(96);
    expect(bounceRate).toBeLessThanOrEqual(98);
  });

  it('warns about sparse and empty samples', async () => {
    const sparse = await ok({ metrics: ['visitors'], date_range: DAY, filters: [['is', 'event:page', ['/rare']]] });
    expect(sparse.meta.sampling.warnings).toEqual([expect.objectContaining({ code: expect.stringMatching(/^(sparse|empty)_sample$/) })]);
    const empty = await ok({ metrics: ['visitors'], date_range: DAY, filters: [['is', 'event:page', ['/nothing']]] });
    expect(empty.meta.sampling.warnings).toEqual([expect.objectContaining({ code: 'empty_sample' })]);
  });
});
