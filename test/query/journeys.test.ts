import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockTeam } from '../../src/stores/meta/teams.js';
import { type FixtureEvent, insertEvents } from '../support/eventFixtures.js';
import { ManualClock } from '../support/manualClock.js';
import { type Account, bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { signedInHeaders } from '../support/webSession.js';
import { journeysAnswer, postJourneys } from './journeysClient.js';

/**
 * A site whose every visit path is known (8 Jan, UTC), paths as the journeys read them:
 *   v1 (DE)  /, /pricing, Signup on /pricing, /blog/a   (/pricing reloaded once)
 *   v1 (DE)  /pricing, /blog/c                          (a second visit, in the afternoon)
 *   v2 (DE)  /, /pricing, /blog/b, /blog/a               (an engagement event on /blog/b; /blog/a/ with its slash)
 *   v3 (US)  /pricing, /docs, /pricing, Signup on /pricing
 *   v4 (FR)  /, /blog/a, /blog/b, /pricing
 *   v5 (US)  /blog, /, /pricing, /docs                   (/blog/ and /docs/ with their slashes)
 *   v6 (DE)  /
 * and on 9 Jan: v8 /pricing, /docs at 02:00 UTC (8 Jan in New York); v9 /pricing, /blog/c at 10:00 UTC.
 */
const visit = (visitor: string, start: string, country: string, steps: (string | { name: string; page: string })[]): FixtureEvent[] =>
  steps.map((step, i) => ({
    visitor,
    at: new Date(Date.parse(`${start}Z`) + i * 60_000).toISOString(),
    country,
    ...(typeof step === 'string' ? { page: step } : step),
  }));

const SITE: FixtureEvent[] = [
  ...visit('v1', '2024-01-08T10:00:00', 'DE', ['/', '/pricing', '/pricing', { name: 'Signup', page: '/pricing' }, '/blog/a']),
  ...visit('v1', '2024-01-08T15:00:00', 'DE', ['/pricing', '/blog/c']),
  ...visit('v2', '2024-01-08T10:00:00', 'DE', ['/', '/pricing', '/blog/b', { name: 'engagement', page: '/blog/b' }, '/blog/a/']),
  ...visit('v3', '2024-01-08T11:00:00', 'US', ['/pricing', '/docs', '/pricing', { name: 'Signup', page: '/pricing' }]),
  ...visit('v4', '2024-01-08T12:00:00', 'FR', ['/', '/blog/a', '/blog/b', '/pricing']),
  ...visit('v5', '2024-01-08T13:00:00', 'US', ['/blog/', '/', '/pricing', '/docs/']),
  ...visit('v6', '2024-01-08T14:00:00', 'DE', ['/']),
  ...visit('v8', '2024-01-09T02:00:00', 'US', ['/pricing', '/docs']),
  ...visit('v9', '2024-01-09T10:00:00', 'US', ['/pricing', '/blog/c']),
];

const DAY = ['2024-01-08', '2024-01-08'];

let t: TestApp;
let account: Account;

beforeAll(async () => {
  t = await startTestApp({ clock: new ManualClock(Date.parse('2024-01-10T12:00:00Z')) });
  account = await createAccount(t.app);
  await insertEvents(t.app, account.siteId, SITE);
});
afterAll(() => t.close());

const post = (body: Record<string, unknown>, key = account.key) => postJourneys(t.url, key, body);
const journeys = (body: Record<string, unknown>) => journeysAnswer(t.url, account.key, { site_id: account.domain, date_range: DAY, ...body });

/** The next steps as [label, visitors]. */
const next = (answer: any) => answer.next.map((row: any) => [row.step.label, row.visitors]);
const funnel = (answer: any) => answer.funnel.map((row: any) => row.visitors);

describe('journeys forward', () => {
  it('lists what comes right after a page, a folder of the pages as a group, and the funnel', async () => {
    const answer = await journeys({ steps: [{ page: '/pricing' }] });
    // v1: Signup, /blog/c (two visits); v2: /blog/b; v3: /docs and Signup; v4 leaves; v5: /docs.
    expect(answer.next).toEqual([
      { step: { page: '/blog/**', label: '/blog/** (2 pages)', pages: 2 }, visitors: 2 },
      { step: { page: '/docs', label: '/docs' }, visitors: 2 },
      { step: { event: 'Signup', page: '/pricing', label: 'Signup on /pricing' }, visitors: 2 },
      { step: { page: '/blog/b', label: '/blog/b' }, visitors: 1 },
      { step: { page: '/blog/c', label: '/blog/c' }, visitors: 1 },
    ]);
    expect(answer.funnel).toEqual([
      { step: { page: '/pricing', label: '/pricing' }, visitors: 5, dropoff: 0, dropoff_percentage: 0, conversion_rate: 100, conversion_rate_step: 100 },
    ]);
    expect(answer.meta).toEqual({ sample_rate: 1 });
    expect(answer.query).toEqual({
      site_id: account.domain,
      date_range: ['2024-01-08T00:00:00+00:00', '2024-01-08T23:59:59+00:00'],
      filters: [],
      steps: [{ page: '/pricing' }],
      direction: 'forward',
      timezone: 'Etc/UTC',
    });
  });

  it('follows several steps one right after another, with drop-off and conversion', async () => {
    const answer = await journeys({ steps: [{ page: '/' }, { page: '/pricing' }] });
    // / was seen by v1, v2, v4, v5, v6; of them v1, v2 and v5 went straight on to /pricing.
    expect(answer.funnel[1]).toEqual({
      step: { page: '/pricing', label: '/pricing' },
      visitors: 3,
      dropoff: 2,
      dropoff_percentage: 40,
      conversion_rate: 60,
      conversion_rate_step: 60,
    });
    expect(funnel(answer)).toEqual([5, 3]);
    expect(next(answer)).toEqual([
      ['/blog/b', 1],
      ['/docs', 1],
      ['Signup on /pricing', 1],
    ]);
    const three = await journeys({ steps: [{ page: '/' }, { page: '/pricing' }, { page: '/docs' }] });
    expect(three.funnel.map((row: any) => [row.visitors, row.conversion_rate, row.conversion_rate_step, row.dropoff_percentage])).toEqual([
      [5, 100, 100, 0],
      [3, 60, 60, 40],
      [1, 20, 33.33, 66.67],
    ]);
  });

  it('takes events with or without their page, and folders as steps', async () => {
    expect(next(await journeys({ steps: [{ event: 'Signup' }] }))).toEqual([['/blog/a', 1]]);
    const folder = await journeys({ steps: [{ page: '/blog/**' }] });
    expect(folder.funnel[0]).toMatchObject({ step: { page: '/blog/**', label: '/blog/**' }, visitors: 4 });
    expect(next(folder)).toEqual([
      ['/blog/** (2 pages)', 2],
      ['/', 1],
      ['/blog/a', 1],
      ['/blog/b', 1],
      ['/pricing', 1],
    ]);
    const onPage = await journeys({ steps: [{ event: 'Signup', page: '/pricing/' }] });
    expect(onPage.funnel[0]).toMatchObject({ step: { event: 'Signup', page: '/pricing', label: 'Signup on /pricing' }, visitors: 2 });
  });

  it('ignores a trailing slash, reloads and engagement events', async () => {
    const docs = await journeys({ steps: [{ page: '/docs/' }] });
    expect(docs.query.steps).toEqual([{ page: '/docs' }]);
    expect(funnel(docs)).toEqual([2]);
    // v1 reloaded /pricing: the same step, so nobody went from /pricing to /pricing.
    const reload = await journeys({ steps: [{ page: '/pricing' }, { page: '/pricing' }] });
    expect(funnel(reload)).toEqual([5, 0]);
    expect(reload.next).toEqual([]);
    // v2's engagement on /blog/b is no step: /blog/a/ comes right after /blog/b.
    expect(next(await journeys({ steps: [{ page: '/blog/b' }] }))).toEqual([
      ['/blog/a', 1],
      ['/pricing', 1],
    ]);
  });

  it('ranks every step when no steps are given, and keeps those matching the search', async () => {
    expect(next(await journeys({}))).toEqual([
      ['/', 5],
      ['/pricing', 5],
      ['/blog/** (4 pages)', 4],
      ['/blog/a', 3],
      ['/blog/b', 2],
      ['/docs', 2],
      ['Signup on /pricing', 2],
      ['/blog', 1],
      ['/blog/c', 1],
    ]);
    expect(next(await journeys({ candidates: 3 }))).toEqual([
      ['/', 5],
      ['/pricing', 5],
      ['/blog/** (4 pages)', 4],
    ]);
    expect(next(await journeys({ search: 'BLOG/' }))).toEqual([
      ['/blog/** (4 pages)', 4],
      ['/blog/a', 3],
      ['/blog/b', 2],
      ['/blog/c', 1],
    ]);
    expect(next(await journeys({ search: 'signup' }))).toEqual([['Signup on /pricing', 2]]);
  });

  it('answers a page nobody reached with a funnel of zeros and no candidates', async () => {
    const answer = await journeys({ steps: [{ page: '/nowhere' }, { event: 'Nothing' }] });
    expect(answer.funnel.map((row: any) => [row.visitors, row.dropoff, row.conversion_rate, row.conversion_rate_step])).toEqual([
      [0, 0, 0, 0],
      [0, 0, 0, 0],
    ]);
    expect(answer.next).toEqual([]);
  });
});

describe('journeys backward', () => {
  it('reads the journey back in time: what came right before', async () => {
    const answer = await journeys({ steps: [{ page: '/pricing' }], direction: 'backward' });
    // Before /pricing: / (v1, v2, v5), /docs (v3), /blog/b (v4); v1's second visit and v3 began on it.
    expect(next(answer)).toEqual([
      ['/', 3],
      ['/blog/b', 1],
      ['/docs', 1],
    ]);
    expect(answer.query.direction).toBe('backward');
    const signup = await journeys({ steps: [{ event: 'Signup', page: '/pricing' }, { page: '/pricing' }], direction: 'backward' });
    expect(funnel(signup)).toEqual([2, 2]);
    // Before v1's /pricing came /; before v3's, /docs.
    expect(next(signup)).toEqual([
      ['/', 1],
      ['/docs', 1],
    ]);
  });
});

describe('journeys filtered', () => {
  it('selects visits by a country, keeping their whole paths', async () => {
    const answer = await journeys({ steps: [{ page: '/pricing' }], filters: [['is', 'visit:country', ['DE']]] });
    expect(funnel(answer)).toEqual([2]);
    expect(next(answer)).toEqual([
      ['/blog/** (2 pages)', 2],
      ['/blog/b', 1],
      ['/blog/c', 1],
      ['Signup on /pricing', 1],
    ]);
  });

  it('reads an event filter as the visits that had such an event', async () => {
    const answer = await journeys({ steps: [{ page: '/pricing' }], filters: [['is', 'event:name', ['Signup']]] });
    // v1's first visit and v3's; v1's second visit had no Signup, so /blog/c is not listed.
    expect(funnel(answer)).toEqual([2]);
    expect(next(answer)).toEqual([
      ['Signup on /pricing', 2],
      ['/docs', 1],
    ]);
    // The filter reads pages as stored: v5's /docs/ is not /docs, so only v3's visit is left.
    const page = await journeys({ filters: [['is', 'event:page', ['/docs']]], candidates: 2 });
    expect(next(page)).toEqual([
      ['/docs', 1],
      ['/pricing', 1],
    ]);
  });

  it('takes a saved segment', async () => {
    const created = await fetch(`${t.url}/api/v1/sites/${account.domain}/segments`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Americans', segment_data: { filters: [['is', 'visit:country', ['US']]], labels: {} } }),
    });
    const { id } = (await created.json()) as { id: number };
    const answer = await journeys({ steps: [{ page: '/pricing' }], filters: [['is', 'segment', [id]]] });
    // v3 and v5.
    expect(funnel(answer)).toEqual([2]);
    expect(next(answer)).toEqual([
      ['/docs', 2],
      ['Signup on /pricing', 1],
    ]);
  });

  it('reads the date range in the time zone asked for', async () => {
    const utc = await journeys({ date_range: ['2024-01-09', '2024-01-09'], steps: [{ page: '/pricing' }] });
    expect(next(utc)).toEqual([
      ['/blog/c', 1],
      ['/docs', 1],
    ]);
    // v8's visit was on the evening of 8 January in New York.
    const ny = await journeys({ date_range: ['2024-01-09', '2024-01-09'], steps: [{ page: '/pricing' }], timezone: 'America/New_York' });
    expect(next(ny)).toEqual([['/blog/c', 1]]);
    expect(ny.query).toMatchObject({ date_range: ['2024-01-09T00:00:00-05:00', '2024-01-09T23:59:59-05:00'], timezone: 'America/New_York' });
  });

  it('reads "all" from the first event on', async () => {
    const all = await journeys({ date_range: 'all', steps: [{ page: '/pricing' }] });
    // v1 to v5 on the 8th, v8 and v9 on the 9th.
    expect(funnel(all)).toEqual([7]);
    expect(all.query.date_range[0]).toBe('2024-01-08T00:00:00+00:00');
  });
});

describe('journeys for the dashboards', () => {
  const body = { date_range: DAY, steps: [{ page: '/pricing' }], direction: 'backward' };
  const send = async (path: string, headers: Record<string, string>, payload: unknown, method = 'POST') => {
    const res = await fetch(`${t.url}${path}`, { method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(payload) });
    return { status: res.status, body: (await res.json()) as any };
  };

  it('answers a signed-in viewer on the site path as the API answers', async () => {
    const api = await journeys(body);
    const headers = await signedInHeaders(t.app, account.userId);
    expect(await send(`/app/api/sites/${account.domain}/journeys`, headers, body)).toEqual({ status: 200, body: api });
    const refused = await send(`/app/api/sites/${account.domain}/journeys`, headers, { ...body, candidates: 99 });
    expect(refused).toMatchObject({ status: 400, body: { error: expect.stringContaining('#/candidates may be at most 20') } });
  });

  it('answers through a shared link', async () => {
    const link = await send('/api/v1/sites/shared-links', bearer(account.key), { site_id: account.domain, name: 'Public' }, 'PUT');
    const slug = new URL(link.body.url).searchParams.get('auth');
    expect(await send(`/app/api/share/${slug}/journeys`, {}, body)).toEqual({ status: 200, body: await journeys(body) });
    expect((await send('/app/api/share/no-such-link/journeys', {}, body)).status).toBe(404);
  });
});

describe('journeys refusals', () => {
  const long = `/${'a'.repeat(2048)}`;
  it.each([
    ['an unknown key', { steps: [{ page: '/' }], extra: 1 }, 'Unknown key "extra" in the request'],
    ['an unknown key in a step', { steps: [{ page: '/', goal: 'x' }] }, 'Unknown key "goal" in #/steps/0'],
    ['a step of nothing', { steps: [{}] }, '#/steps/0 must name a "page", an "event", or both'],
    ['an empty page', { steps: [{ page: '' }] }, '#/steps/0/page must not be empty'],
    ['a page not starting with /', { steps: [{ page: 'pricing' }] }, '#/steps/0/page must be a path starting with "/"'],
    ['a wildcard inside a page', { steps: [{ page: '/a*b' }] }, '#/steps/0/page may hold "*" only'],
    ['an over-long page', { steps: [{ page: long }] }, '#/steps/0/page may be at most 2,048 characters long'],
    ['an empty event', { steps: [{ event: '' }] }, '#/steps/0/event must not be empty'],
    ['pageviews as an event', { steps: [{ event: 'pageview' }] }, '#/steps/0/event must be a custom event'],
    ['ten steps', { steps: Array.from({ length: 10 }, () => ({ page: '/' })) }, '#/steps may hold at most 9 steps'],
    ['no candidates', { candidates: 0 }, '#/candidates must be at least 1'],
    ['21 candidates', { candidates: 21 }, '#/candidates may be at most 20'],
    ['a fraction of candidates', { candidates: 2.5 }, '#/candidates must be a whole number'],
    ['another direction', { direction: 'sideways' }, '#/direction must be "forward" or "backward"'],
    ['a short search', { search: 'ab' }, '#/search must be at least 3 characters long'],
    ['a time filter', { filters: [['is', 'time', ['2024-01-08']]] }, 'a time dimension ("time") cannot be filtered'],
    ['an unknown date range', { date_range: 'soon' }, 'date_range'],
  ])('refuses %s with a sentence', async (_, body, sentence) => {
    const res = await post({ site_id: account.domain, date_range: DAY, ...body });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(sentence);
  });

  it('answers as the query API does for keys: 401, 403, 402, 429 and rate headers', async () => {
    expect((await post({ site_id: account.domain, date_range: DAY }, 'nope')).status).toBe(401);
    const other = await createAccount(t.app);
    expect((await post({ site_id: account.domain, date_range: DAY }, other.key)).status).toBe(401);
    const noStats = await createAccount(t.app, { scopes: ['sites:read'] });
    expect((await post({ site_id: noStats.domain, date_range: DAY }, noStats.key)).body).toMatchObject({ code: 'insufficient_scope' });
    const limited = await createAccount(t.app, { hourlyLimit: 1 });
    const first = await post({ site_id: limited.domain, date_range: DAY }, limited.key);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('1');
    expect((await post({ site_id: limited.domain, date_range: DAY }, limited.key)).status).toBe(429);
    const locked = await createAccount(t.app);
    await lockTeam(t.app.meta.db, locked.teamId, 'card declined', t.app.clock.now());
    expect((await post({ site_id: locked.domain, date_range: DAY }, locked.key)).status).toBe(402);
  });
});
