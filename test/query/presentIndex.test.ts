import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEvents } from '../support/eventFixtures.js';
import { ManualClock } from '../support/manualClock.js';
import { type Account, bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';

// Wednesday 10 January 2024, twenty seconds into 12:30 UTC.
const clock = new ManualClock(Date.parse('2024-01-10T12:30:20Z'));
let t: TestApp;
/** Has an event in every bucket holding now. */
let busy: Account;
/** Nothing since November: no bucket holding now has a row. */
let quiet: Account;
/** Half an hour off UTC: its hours start at :30 UTC. */
let kolkata: Account;

beforeAll(async () => {
  t = await startTestApp({ clock });
  busy = await createAccount(t.app);
  await insertEvents(t.app, busy.siteId, [
    { visitor: 'now', at: '2024-01-10 12:30:05', page: '/' },
    { visitor: 'earlier', at: '2024-01-09 12:10:00', page: '/' },
  ]);
  quiet = await createAccount(t.app);
  await insertEvents(t.app, quiet.siteId, [{ visitor: 'autumn', at: '2023-11-05 10:00:00', page: '/' }]);
  kolkata = await createAccount(t.app, { timezone: 'Asia/Kolkata' });
  await insertEvents(t.app, kolkata.siteId, [{ visitor: 'morning', at: '2024-01-10 04:00:00', page: '/' }]);
});
afterAll(() => t.close());

async function answer(account: Account, body: Record<string, unknown>) {
  const res = await fetch(`${t.url}/api/v2/query`, {
    method: 'POST',
    headers: { ...bearer(account.key), 'content-type': 'application/json' },
    body: JSON.stringify({ site_id: account.domain, metrics: ['visitors'], include: { time_labels: true }, ...body }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as {
    results: { dimensions: string[] }[];
    meta: { present_index: number | null; time_labels: string[]; metric_warnings: Record<string, { code: string }> };
  };
}

/** Each interval over a range holding now, and the label of the bucket that is still filling. */
const CASES = [
  { interval: 'minute', date_range: 'realtime', filling: '2024-01-10 12:30:00', index: 30 },
  { interval: 'hour', date_range: 'day', filling: '2024-01-10 12:00:00', index: 12 },
  { interval: 'day', date_range: 'month', filling: '2024-01-10', index: 9 },
  // The range starts on a Tuesday: its first bucket is that day, then Mondays.
  { interval: 'week', date_range: ['2024-01-02', '2024-01-31'], filling: '2024-01-08', index: 1 },
  { interval: 'month', date_range: ['2023-11-01', '2024-01-31'], filling: '2024-01-01', index: 2 },
] as const;

describe('meta.present_index', () => {
  for (const { interval, date_range, filling, index } of CASES) {
    it(`marks the ${interval} still filling, whether or not it has a row yet`, async () => {
      for (const account of [busy, quiet]) {
        const body = await answer(account, { date_range, dimensions: [`time:${interval}`] });
        expect(body.meta.present_index).toBe(index);
        expect(body.meta.time_labels[index]).toBe(filling);
        expect(body.meta.time_labels).toHaveLength(index + (interval === 'week' ? 4 : interval === 'day' ? 22 : 1));
        expect(body.meta.metric_warnings.visitors?.code).toBe('bucket_in_progress');
      }
      // The busy site's row of that bucket is in the results; the quiet site has none.
      const busyRows = (await answer(busy, { date_range, dimensions: [`time:${interval}`] })).results;
      expect(busyRows.map((r) => r.dimensions[0])).toContain(filling);
      expect((await answer(quiet, { date_range, dimensions: [`time:${interval}`] })).results.map((r) => r.dimensions[0])).not.toContain(filling);
    });
  }

  it('counts among the range’s buckets even without time_labels, and whatever the rows’ order', async () => {
    const body = await answer(busy, { date_range: 'month', dimensions: ['time:day'], include: {}, order_by: [['time:day', 'desc']] });
    expect(body.results.map((r) => r.dimensions[0])).toEqual(['2024-01-10', '2024-01-09']);
    expect(body.meta.present_index).toBe(9);
  });

  it('finds the hour in a zone half an hour off UTC', async () => {
    const body = await answer(kolkata, { date_range: 'day', dimensions: ['time:hour'] });
    // 12:30:20 UTC is 18:00:20 in Kolkata.
    expect(body.meta.time_labels[body.meta.present_index ?? -1]).toBe('2024-01-10 18:00:00');
    expect(body.meta.present_index).toBe(18);
  });

  it('is null for a range that has ended, and without a time dimension', async () => {
    const past = await answer(busy, { date_range: ['2024-01-08', '2024-01-09'], dimensions: ['time:hour'] });
    expect(past.meta.present_index).toBeNull();
    expect(past.meta.metric_warnings).toEqual({});
    const total = await answer(busy, { date_range: 'day', include: {} });
    expect(total.meta.present_index).toBeNull();
  });
});
