import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { insertEvents } from '../support/eventFixtures.js';
import { type Account, type TestApp, bearer, createAccount, startTestApp } from '../support/testApp.js';

/**
 * One site on two hostnames. a enters on example.com and moves on to blog.example.com; b enters
 * on the blog and leaves from example.com; c stays on the blog.
 */
let t: TestApp;
let account: Account;
const clock = new ManualClock(Date.parse('2024-01-20T12:00:00Z'));

beforeAll(async () => {
  t = await startTestApp({ clock });
  account = await createAccount(t.app);
  await insertEvents(t.app, account.siteId, [
    { visitor: 'a', at: '2024-01-08 10:00:00', hostname: 'example.com', page: '/', source: 'Google' },
    { visitor: 'a', at: '2024-01-08 10:01:00', hostname: 'blog.example.com', page: '/post', source: 'Google' },
    { visitor: 'b', at: '2024-01-08 11:00:00', hostname: 'blog.example.com', page: '/post', source: 'Bing' },
    { visitor: 'b', at: '2024-01-08 11:01:00', hostname: 'example.com', page: '/pricing', source: 'Bing' },
    { visitor: 'c', at: '2024-01-08 12:00:00', hostname: 'blog.example.com', page: '/other', source: 'Bing' },
  ]);
});
afterAll(() => t.close());

async function query(dimension: string, metrics: string[] = ['visitors']) {
  const res = await fetch(`${t.url}/api/v2/query`, {
    method: 'POST',
    headers: { ...bearer(account.key), 'content-type': 'application/json' },
    body: JSON.stringify({ site_id: account.domain, metrics, date_range: ['2024-01-08', '2024-01-08'], dimensions: [dimension], filters: [['is', 'event:hostname', ['blog.example.com']]] }),
  });
  return (await res.json()) as { results: { dimensions: string[]; metrics: number[] }[]; query: { filters: unknown[] } };
}

async function rows(dimension: string, metrics: string[] = ['visitors']) {
  return (await query(dimension, metrics)).results.map((r) => [...r.dimensions, ...r.metrics]);
}

describe('a hostname filter on visit breakdowns (as the reference extends it)', () => {
  it('lists sources and entry pages of the visits that entered on that hostname', async () => {
    expect(await rows('visit:source')).toEqual([['Bing', 2]]);
    expect(await rows('visit:entry_page', ['visitors', 'bounce_rate'])).toEqual([
      ['/other', 1, 100],
      ['/post', 1, 0],
    ]);
    // The entry hostname is a breakdown of its own, not extended: a touched the blog but entered elsewhere.
    expect(await rows('visit:entry_page_hostname')).toEqual([
      ['blog.example.com', 2],
      ['example.com', 1],
    ]);
  });

  it('lists exit pages of the visits that left from that hostname', async () => {
    expect(await rows('visit:exit_page')).toEqual([
      ['/other', 1],
      ['/post', 1],
    ]);
  });

  it('leaves event breakdowns and the echoed filters as they were', async () => {
    expect(await rows('event:page')).toEqual([
      ['/post', 2],
      ['/other', 1],
    ]);
    expect((await query('visit:source')).query.filters).toEqual([['is', 'event:hostname', ['blog.example.com']]]);
  });
});
