import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROME_MAC, SAFARI_IPHONE } from '../support/collect.js';
import { ManualClock } from '../support/manualClock.js';
import { type Account, bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';

/**
 * From raw events through the import (the same pipeline as live traffic) to the query API:
 * the numbers below are counted by hand from these lines.
 *
 * 3 Mar: A (Chrome, from Google) views /, then /pricing 4 min later, signs up at +5 min.
 *        B (iPhone, direct) views /pricing and leaves (bounce).
 *        C (curl) views / — a bot, excluded from reports.
 * 4 Mar: A comes back (new day, new salt: a new visitor) on /blog and bounces.
 */
const clock = new ManualClock(Date.parse('2026-03-10T12:00:00Z'));
let t: TestApp;
let site: Account;

beforeAll(async () => {
  t = await startTestApp({ clock });
  site = await createAccount(t.app, { domain: 'imported.example.com' });
  const a = { ip: '81.2.69.142', user_agent: CHROME_MAC };
  const b = { ip: '81.2.69.160', user_agent: SAFARI_IPHONE };
  const u = (path: string) => `https://imported.example.com${path}`;
  const lines = [
    { ...a, timestamp: '2026-03-03T10:00:00Z', n: 'pageview', u: u('/'), r: 'https://www.google.com/' },
    { ...a, timestamp: '2026-03-03T10:04:00Z', n: 'pageview', u: u('/pricing') },
    { ...a, timestamp: '2026-03-03T10:05:00Z', n: 'Signup', u: u('/pricing'), p: { plan: 'pro' } },
    { ...b, timestamp: '2026-03-03T11:00:00Z', n: 'pageview', u: u('/pricing') },
    { ip: '81.2.69.170', user_agent: 'curl/8.5.0', timestamp: '2026-03-03T12:00:00Z', n: 'pageview', u: u('/') },
    { ...a, timestamp: '2026-03-04T09:00:00Z', n: 'pageview', u: u('/blog') },
  ];
  const res = await fetch(`${t.url}/api/v1/sites/${site.domain}/events/import`, {
    method: 'POST',
    headers: bearer(site.key),
    body: lines.map((line) => JSON.stringify(line)).join('\n'),
  });
  expect((await res.json()).outcomes).toEqual({ stored: 5, bot: 1 });
});
afterAll(() => t.close());

async function query(body: Record<string, unknown>) {
  const res = await fetch(`${t.url}/api/v2/query`, {
    method: 'POST',
    headers: { ...bearer(site.key), 'content-type': 'application/json' },
    body: JSON.stringify({ site_id: site.domain, ...body }),
  });
  expect(res.status).toBe(200);
  return res.json();
}

describe('imported events answered by the query engine', () => {
  it('aggregates visitors, visits, pageviews, events, bounce rate and duration', async () => {
    const body = await query({
      metrics: ['visitors', 'visits', 'pageviews', 'events', 'bounce_rate', 'visit_duration', 'views_per_visit'],
      date_range: ['2026-03-03', '2026-03-04'],
    });
    // Visits: A's first (2 pageviews, 300 s, not a bounce), B's (bounce), A's second (bounce).
    expect(body.results).toEqual([{ metrics: [3, 3, 4, 5, 67, 100, 1.33], dimensions: [] }]);
  });

  it('breaks down by source and by entry page, and counts the bot only when asked', async () => {
    const sources = await query({
      metrics: ['visitors'],
      date_range: ['2026-03-03', '2026-03-04'],
      dimensions: ['visit:source'],
      order_by: [
        ['visitors', 'desc'],
        ['visit:source', 'asc'],
      ],
    });
    expect(sources.results).toEqual([
      { metrics: [2], dimensions: ['Direct / None'] },
      { metrics: [1], dimensions: ['Google'] },
    ]);
    const entries = await query({
      metrics: ['visits'],
      date_range: ['2026-03-03', '2026-03-04'],
      dimensions: ['visit:entry_page'],
      order_by: [['visit:entry_page', 'asc']],
    });
    expect(entries.results).toEqual([
      { metrics: [1], dimensions: ['/'] },
      { metrics: [1], dimensions: ['/blog'] },
      { metrics: [1], dimensions: ['/pricing'] },
    ]);
    const v1 = await fetch(`${t.url}/api/v1/stats/aggregate?site_id=${site.domain}&period=custom&date=2026-03-03,2026-03-04&metrics=visitors&with_bots=true`, {
      headers: bearer(site.key),
    });
    expect((await v1.json()).results.visitors.value).toBe(4);
  });

  it('answers per day in the site’s time zone', async () => {
    const body = await query({ metrics: ['visitors', 'pageviews'], date_range: ['2026-03-03', '2026-03-04'], dimensions: ['time:day'] });
    expect(body.results).toEqual([
      { metrics: [2, 3], dimensions: ['2026-03-03'] },
      { metrics: [1, 1], dimensions: ['2026-03-04'] },
    ]);
  });
});
