import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, stored } from '../support/collect.js';
import { ManualClock } from '../support/manualClock.js';
import { bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';

const clock = new ManualClock(Date.parse('2026-06-02T09:00:00Z'));
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ clock, env: { TRUSTED_PROXIES: '127.0.0.1' } });
});
afterAll(() => t.close());

interface Visit {
  session_id: string;
  entry_page: string;
  exit_page: string;
  pageviews: number;
  events: number;
  duration: number;
  is_bounce: number;
  start: string;
  referrer_source: string;
}

/** Final state of every visit of a site (collapsed), oldest first. */
async function visits(siteId: number): Promise<Visit[]> {
  const rows = await stored<Record<string, string | number>>(
    t,
    `SELECT session_id, argMax(entry_page, events) AS v_entry, argMax(exit_page, events) AS v_exit,
            argMax(pageviews, events) AS v_pageviews, max(events) AS v_events, argMax(duration, events) AS v_duration,
            argMax(is_bounce, events) AS v_bounce, min(start) AS v_start, any(referrer_source) AS v_source
     FROM sessions WHERE site_id = {s:UInt64} GROUP BY session_id HAVING sum(sign) > 0 ORDER BY v_start`,
    { s: siteId },
  );
  return rows.map((r) => ({
    session_id: String(r.session_id),
    entry_page: String(r.v_entry),
    exit_page: String(r.v_exit),
    pageviews: Number(r.v_pageviews),
    events: Number(r.v_events),
    duration: Number(r.v_duration),
    is_bounce: Number(r.v_bounce),
    start: String(r.v_start),
    referrer_source: String(r.v_source),
  }));
}

async function newSite() {
  const account = await createAccount(t.app);
  const send = (body: Record<string, unknown>, ip = '81.2.69.142') =>
    collect(t, { d: account.domain, ...body, u: body.u ? `https://${account.domain}${body.u}` : `https://${account.domain}/` }, { ip });
  return { account, send };
}

describe('visits', () => {
  it('tracks entry, exit, pageviews, duration and bounce, and starts a new visit after 30 idle minutes', async () => {
    clock.set('2026-06-02T09:00:00Z');
    const { account, send } = await newSite();
    await send({ n: 'pageview', u: '/landing', r: 'https://news.ycombinator.com/item?id=1' });
    clock.advance(60_000);
    await send({ n: 'pageview', u: '/pricing', r: 'https://www.google.com/' });
    clock.advance(29 * 60_000);
    await send({ n: 'pageview', u: '/signup' });
    clock.advance(30 * 60_000 + 1000);
    await send({ n: 'pageview', u: '/back' });

    const [first, second] = await visits(account.siteId);
    expect(first).toMatchObject({
      entry_page: '/landing',
      exit_page: '/signup',
      pageviews: 3,
      events: 3,
      duration: 30 * 60,
      is_bounce: 0,
      referrer_source: 'Hacker News',
    });
    expect(second).toMatchObject({ entry_page: '/back', exit_page: '/back', pageviews: 1, duration: 0, is_bounce: 1 });
    const events = await stored<{ session_id: string; referrer_source: string }>(
      t,
      'SELECT session_id, referrer_source FROM events WHERE site_id = {s:UInt64} ORDER BY timestamp',
      { s: account.siteId },
    );
    // Every event carries its visit's attributes, fixed by the visit's first event.
    expect(events.map((e) => e.referrer_source)).toEqual(['Hacker News', 'Hacker News', 'Hacker News', '']);
    expect(new Set(events.slice(0, 3).map((e) => e.session_id)).size).toBe(1);
    expect(events[3]!.session_id).not.toBe(events[0]!.session_id);
  });

  it('lets an interactive custom event un-bounce a visit, but not a non-interactive one', async () => {
    clock.set('2026-06-02T12:00:00Z');
    const { account, send } = await newSite();
    await send({ n: 'pageview', u: '/a' }, '81.2.1.1');
    await send({ n: 'Video Autoplay', u: '/a', i: false }, '81.2.1.1');
    await send({ n: 'pageview', u: '/b' }, '81.2.1.2');
    clock.advance(5000);
    await send({ n: 'Clicked CTA', u: '/b' }, '81.2.1.2');
    await send({ n: 'Newsletter Popup', i: false }, '81.2.1.3');
    const byEntry = Object.fromEntries((await visits(account.siteId)).map((v) => [v.entry_page, v]));
    expect(byEntry['/a']).toMatchObject({ is_bounce: 1, events: 2, pageviews: 1 });
    expect(byEntry['/b']).toMatchObject({ is_bounce: 0, events: 2, duration: 5 });
    // A visit that starts with a non-interactive event is a bounce with no entry page yet.
    expect(byEntry['']).toMatchObject({ is_bounce: 1, events: 1, pageviews: 0 });
    // `i: false` on a pageview is ignored: pageviews are always interactive.
    await send({ n: 'pageview', u: '/c', i: false }, '81.2.1.4');
    const [row] = await stored<{ interactive: number }>(t, "SELECT interactive FROM events WHERE pathname = '/c'");
    expect(row?.interactive).toBe(1);
  });

  it('continues a visit across midnight UTC, then gives the visitor a new id', async () => {
    clock.set('2026-06-02T23:50:00Z');
    const { account, send } = await newSite();
    await send({ n: 'pageview', u: '/before-midnight' }, '81.2.2.2');
    clock.set('2026-06-03T00:05:00Z');
    await send({ n: 'pageview', u: '/after-midnight' }, '81.2.2.2');
    clock.set('2026-06-03T01:00:00Z');
    await send({ n: 'pageview', u: '/next-visit' }, '81.2.2.2');
    const rows = await stored<{ pathname: string; user_id: string; session_id: string }>(
      t,
      'SELECT pathname, user_id, session_id FROM events WHERE site_id = {s:UInt64} ORDER BY timestamp',
      { s: account.siteId },
    );
    expect(rows.map((r) => r.pathname)).toEqual(['/before-midnight', '/after-midnight', '/next-visit']);
    expect(rows[1]).toMatchObject({ user_id: rows[0]!.user_id, session_id: rows[0]!.session_id });
    expect(rows[2]!.user_id).not.toBe(rows[0]!.user_id);
    const salts = await t.app.meta.db.selectFrom('salts').select('day').orderBy('day').execute();
    expect(salts.map((s) => s.day)).toEqual(['2026-06-02', '2026-06-03']);
  });

  it('keeps only today’s and yesterday’s salts', async () => {
    clock.set('2026-06-05T00:00:01Z');
    await t.app.ingestion.tick();
    const salts = await t.app.meta.db.selectFrom('salts').select('day').orderBy('day').execute();
    expect(salts.map((s) => s.day)).toEqual(['2026-06-05']);
  });
});

describe('engagement', () => {
  it('feeds the visit’s events without changing the visit', async () => {
    clock.set('2026-06-06T10:00:00Z');
    const { account, send } = await newSite();
    await send({ n: 'pageview', u: '/article' }, '81.2.3.3');
    clock.advance(40_000);
    await send({ n: 'engagement', u: '/article', sd: 80, e: 35_000 }, '81.2.3.3');
    clock.advance(29 * 60_000);
    // The engagement kept the visit alive: 29 minutes after it, this is still the same visit.
    await send({ n: 'pageview', u: '/second' }, '81.2.3.3');
    const [visit] = await visits(account.siteId);
    expect(visit).toMatchObject({ pageviews: 2, events: 2, is_bounce: 0, exit_page: '/second' });
    const [engagement] = await stored<{ scroll_depth: number; engagement_time: number; session_id: string }>(
      t,
      "SELECT scroll_depth, engagement_time, session_id FROM events WHERE site_id = {s:UInt64} AND name = 'engagement'",
      { s: account.siteId },
    );
    expect(engagement).toMatchObject({ scroll_depth: 80, engagement_time: 35_000, session_id: visit!.session_id });
  });

  it('holds an engagement that arrives before its pageview, and adopts it', async () => {
    clock.set('2026-06-06T11:00:00Z');
    const { account, send } = await newSite();
    const early = await send({ n: 'engagement', u: '/early', sd: 30, e: 1000 }, '81.2.4.4');
    expect(early.status).toBe(202);
    expect(early.headers.get('x-svc-dropped')).toBeNull();
    clock.advance(2000);
    await send({ n: 'pageview', u: '/early' }, '81.2.4.4');
    const rows = await stored<{ name: string; session_id: string }>(t, 'SELECT name, session_id FROM events WHERE site_id = {s:UInt64} ORDER BY name', {
      s: account.siteId,
    });
    expect(rows.map((r) => r.name)).toEqual(['engagement', 'pageview']);
    expect(rows[0]!.session_id).toBe(rows[1]!.session_id);
  });

  it('counts an orphan as no_session_for_engagement 30 minutes after it arrived', async () => {
    clock.set('2026-06-06T12:00:00Z');
    const { account, send } = await newSite();
    await send({ n: 'engagement', u: '/lonely', sd: 10 }, '81.2.5.5');
    clock.advance(29 * 60_000);
    await t.app.ingestion.tick();
    const health = async () => (await (await fetch(`${t.url}/api/v1/sites/${account.domain}/ingestion`, { headers: bearer(account.key) })).json()).totals;
    expect(await health()).toEqual({});
    clock.advance(60_000 + 10_000);
    await t.app.ingestion.tick();
    expect(await health()).toEqual({ no_session_for_engagement: 1 });
    const [count] = await stored<{ c: string }>(t, 'SELECT count() AS c FROM events WHERE site_id = {s:UInt64}', { s: account.siteId });
    expect(count?.c).toBe('0');
  });
});
