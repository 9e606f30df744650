import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addGoal, insertEvents } from '../support/eventFixtures.js';
import { ManualClock } from '../support/manualClock.js';
import { type Account, bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';

/**
 * x arrives from Hacker News with every attribute set and views /a then /b; y arrives with
 * nothing known and views /c late in the (UTC) evening.
 */
let t: TestApp;
let account: Account;
const clock = new ManualClock(Date.parse('2024-01-20T12:00:00Z'));

beforeAll(async () => {
  t = await startTestApp({ clock });
  account = await createAccount(t.app);
  await insertEvents(t.app, account.siteId, [
    {
      visitor: 'x',
      at: '2024-01-08 10:00:00',
      page: '/a',
      title: 'A',
      hostname: 'a.example',
      referrer: 'https://news.ycombinator.com/item',
      source: 'Hacker News',
      channel: 'Referral',
      utmSource: 'hn',
      utmMedium: 'social',
      utmCampaign: 'launch',
      country: 'DE',
      region: 'DE-BY',
      city: 'Munich',
      device: 'Desktop',
      screen: 'Laptop',
      browser: 'Firefox',
      browserVersion: '120.0',
      os: 'Linux',
      osVersion: '6.1',
      language: 'de',
    },
    { visitor: 'x', at: '2024-01-08 10:10:00', page: '/b' },
    { visitor: 'y', at: '2024-01-08 23:30:00', page: '/c' },
    { visitor: 'y', at: '2024-01-08 23:31:00', name: 'Download', page: '/c' },
  ]);
  await addGoal(t.app, account.siteId, { eventName: 'Download' });
});
afterAll(() => t.close());

async function query(body: Record<string, unknown>, on: Account = account) {
  const res = await fetch(`${t.url}/api/v2/query`, {
    method: 'POST',
    headers: { ...bearer(on.key), 'content-type': 'application/json' },
    body: JSON.stringify({ site_id: on.domain, date_range: ['2024-01-08', '2024-01-08'], ...body }),
  });
  const json = (await res.json()) as any;
  if (res.status !== 200) throw new Error(JSON.stringify(json));
  return json;
}

async function rows(body: Record<string, unknown>, on: Account = account) {
  return (await query(body, on)).results.map((r: any) => [...r.dimensions, ...r.metrics]);
}

describe('every dimension', () => {
  it.each([
    [
      'event:page',
      'pageviews',
      [
        ['/a', 1],
        ['/b', 1],
        ['/c', 1],
      ],
    ],
    [
      'event:page_title',
      'pageviews',
      [
        ['', 2],
        ['A', 1],
      ],
    ],
    [
      'event:hostname',
      'pageviews',
      [
        ['a.example', 1],
        ['example.com', 2],
      ],
    ],
    [
      'event:name',
      'events',
      [
        ['Download', 1],
        ['pageview', 3],
      ],
    ],
    [
      'visit:source',
      'visitors',
      [
        ['Direct / None', 1],
        ['Hacker News', 1],
      ],
    ],
    [
      'visit:referrer',
      'visitors',
      [
        ['Direct / None', 1],
        ['https://news.ycombinator.com/item', 1],
      ],
    ],
    [
      'visit:channel',
      'visitors',
      [
        ['Direct', 1],
        ['Referral', 1],
      ],
    ],
    [
      'visit:utm_source',
      'visitors',
      [
        ['(not set)', 1],
        ['hn', 1],
      ],
    ],
    [
      'visit:utm_medium',
      'visitors',
      [
        ['(not set)', 1],
        ['social', 1],
      ],
    ],
    [
      'visit:utm_campaign',
      'visitors',
      [
        ['(not set)', 1],
        ['launch', 1],
      ],
    ],
    [
      'visit:country',
      'visitors',
      [
        ['', 1],
        ['DE', 1],
      ],
    ],
    [
      'visit:region',
      'visitors',
      [
        ['', 1],
        ['DE-BY', 1],
      ],
    ],
    [
      'visit:city',
      'visitors',
      [
        ['', 1],
        ['Munich', 1],
      ],
    ],
    [
      'visit:device',
      'visitors',
      [
        ['(not set)', 1],
        ['Desktop', 1],
      ],
    ],
    [
      'visit:screen',
      'visitors',
      [
        ['(not set)', 1],
        ['Laptop', 1],
      ],
    ],
    [
      'visit:browser',
      'visitors',
      [
        ['(not set)', 1],
        ['Firefox', 1],
      ],
    ],
    [
      'visit:browser_version',
      'visitors',
      [
        ['(not set)', 1],
        ['120.0', 1],
      ],
    ],
    [
      'visit:os',
      'visitors',
      [
        ['(not set)', 1],
        ['Linux', 1],
      ],
    ],
    [
      'visit:os_version',
      'visitors',
      [
        ['(not set)', 1],
        ['6.1', 1],
      ],
    ],
    [
      'visit:language',
      'visitors',
      [
        ['(not set)', 1],
        ['de', 1],
      ],
    ],
    [
      'visit:entry_page',
      'visits',
      [
        ['/a', 1],
        ['/c', 1],
      ],
    ],
    [
      'visit:exit_page',
      'visits',
      [
        ['/b', 1],
        ['/c', 1],
      ],
    ],
    [
      'time:hour',
      'pageviews',
      [
        ['2024-01-08 10:00:00', 2],
        ['2024-01-08 23:00:00', 1],
      ],
    ],
    [
      'time:minute',
      'pageviews',
      [
        ['2024-01-08 10:00:00', 1],
        ['2024-01-08 10:10:00', 1],
        ['2024-01-08 23:30:00', 1],
        ['2024-01-08 23:31:00', 0],
      ],
    ],
  ])('%s', async (dimension, metric, expected) => {
    expect(await rows({ metrics: [metric], dimensions: [dimension], order_by: [[dimension, 'asc']] })).toEqual(expected);
  });

  it('buckets by week and month', async () => {
    expect(await rows({ metrics: ['visitors'], dimensions: ['time:week'], date_range: ['2024-01-03', '2024-01-16'] })).toEqual([['2024-01-08', 2]]);
    expect(await rows({ metrics: ['visitors'], dimensions: ['time:month'], date_range: 'year', exact: true })).toEqual([['2024-01-01', 2]]);
  });

  it('buckets in the time zone the query names', async () => {
    expect(await rows({ metrics: ['pageviews'], dimensions: ['time:day'], date_range: ['2024-01-08', '2024-01-09'], timezone: 'Asia/Tokyo' })).toEqual([
      ['2024-01-08', 2],
      ['2024-01-09', 1],
    ]);
  });

  it('computes group conversion rates per group', async () => {
    expect(
      await rows({
        metrics: ['visitors', 'group_conversion_rate', 'conversion_rate'],
        dimensions: ['visit:source'],
        filters: [['is', 'event:goal', ['Download']]],
      }),
    ).toEqual([['Direct / None', 1, 100, 50]]);
  });

  it('filters case-insensitively with is and matches', async () => {
    expect(await rows({ metrics: ['visitors'], filters: [['is', 'visit:city', ['munich'], { case_sensitive: false }]] })).toEqual([[1]]);
    expect(await rows({ metrics: ['visitors'], filters: [['is', 'visit:city', ['munich']]] })).toEqual([[0]]);
    expect(await rows({ metrics: ['visitors'], filters: [['matches', 'visit:browser', ['^fire'], { case_sensitive: false }]] })).toEqual([[1]]);
  });
});

describe('every preset', () => {
  it.each([
    ['day', ['2024-01-20T00:00:00+00:00', '2024-01-20T12:00:00+00:00']],
    ['24h', ['2024-01-19T12:00:00+00:00', '2024-01-20T12:00:00+00:00']],
    ['7d', ['2024-01-13T00:00:00+00:00', '2024-01-19T23:59:59+00:00']],
    ['28d', ['2023-12-23T00:00:00+00:00', '2024-01-19T23:59:59+00:00']],
    ['91d', ['2023-10-21T00:00:00+00:00', '2024-01-19T23:59:59+00:00']],
    ['month', ['2024-01-01T00:00:00+00:00', '2024-01-31T23:59:59+00:00']],
    ['last_month', ['2023-12-01T00:00:00+00:00', '2023-12-31T23:59:59+00:00']],
    ['year', ['2024-01-01T00:00:00+00:00', '2024-12-31T23:59:59+00:00']],
    ['12mo', ['2023-01-01T00:00:00+00:00', '2023-12-31T23:59:59+00:00']],
    ['all', ['2024-01-08T00:00:00+00:00', '2024-01-20T23:59:59+00:00']],
    ['realtime', ['2024-01-20T11:30:00+00:00', '2024-01-20T12:00:00+00:00']],
    ['5m', ['2024-01-20T11:55:00+00:00', '2024-01-20T12:00:00+00:00']],
  ])('%s resolves to exact bounds echoed in query.date_range', async (preset, bounds) => {
    const res = await fetch(`${t.url}/api/v2/query`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: account.domain, metrics: ['visitors'], date_range: preset }),
    });
    const json = (await res.json()) as any;
    expect(json.query.date_range).toEqual(bounds);
    expect(json.results[0].metrics[0]).toBe(['month', 'year', 'all', '28d', '91d'].includes(preset) ? 2 : 0);
  });
});

/**
 * One site on two hostnames. a enters on example.com and moves on to blog.example.com; b enters
 * on the blog and leaves from example.com; c stays on the blog.
 */
describe('a hostname filter on visit breakdowns (as the reference extends it)', () => {
  let twoHosts: Account;
  beforeAll(async () => {
    twoHosts = await createAccount(t.app);
    await insertEvents(t.app, twoHosts.siteId, [
      { visitor: 'a', at: '2024-01-08 10:00:00', hostname: 'example.com', page: '/', source: 'Google' },
      { visitor: 'a', at: '2024-01-08 10:01:00', hostname: 'blog.example.com', page: '/post', source: 'Google' },
      { visitor: 'b', at: '2024-01-08 11:00:00', hostname: 'blog.example.com', page: '/post', source: 'Bing' },
      { visitor: 'b', at: '2024-01-08 11:01:00', hostname: 'example.com', page: '/pricing', source: 'Bing' },
      { visitor: 'c', at: '2024-01-08 12:00:00', hostname: 'blog.example.com', page: '/other', source: 'Bing' },
    ]);
  });
  const onBlog = (dimension: string, metrics = ['visitors']) =>
    rows({ metrics, dimensions: [dimension], filters: [['is', 'event:hostname', ['blog.example.com']]] }, twoHosts);

  it('lists sources and entry pages of the visits that entered on that hostname', async () => {
    expect(await onBlog('visit:source')).toEqual([['Bing', 2]]);
    expect(await onBlog('visit:entry_page', ['visitors', 'bounce_rate'])).toEqual([
      ['/other', 1, 100],
      ['/post', 1, 0],
    ]);
    // The entry hostname is a breakdown of its own, not extended: a touched the blog but entered elsewhere.
    expect(await onBlog('visit:entry_page_hostname')).toEqual([
      ['blog.example.com', 2],
      ['example.com', 1],
    ]);
  });

  it('lists exit pages of the visits that left from that hostname', async () => {
    expect(await onBlog('visit:exit_page')).toEqual([
      ['/other', 1],
      ['/post', 1],
    ]);
  });

  it('leaves event breakdowns and the echoed filters as they were', async () => {
    expect(await onBlog('event:page')).toEqual([
      ['/post', 2],
      ['/other', 1],
    ]);
    const echoed = await query({ metrics: ['visitors'], dimensions: ['visit:source'], filters: [['is', 'event:hostname', ['blog.example.com']]] }, twoHosts);
    expect(echoed.query.filters).toEqual([['is', 'event:hostname', ['blog.example.com']]]);
  });
});
