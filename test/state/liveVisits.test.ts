import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedVisit, VisitEvent } from '../../src/ingest/liveVisits/index.js';
import { SessionTracker } from '../../src/ingest/liveVisits/index.js';
import { OrphanEngagements } from '../../src/ingest/orphans.js';
import { clickhouseTime, type EventRow, eventRow, type SessionRow, type VisitAttributes } from '../../src/ingest/rows.js';
import { SharedHeldEngagements } from '../../src/state/heldEngagements.js';
import { SharedLiveVisits, VISITS_WARM_KEY } from '../../src/state/liveVisits.js';
import { SharedState } from '../../src/state/redis.js';
import { collect, stored } from '../support/collect.js';
import { ManualClock } from '../support/manualClock.js';
import { bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { next, startTestRedis, type TestRedis } from './redisServer.js';

const silent = { warn() {}, info() {} };
const T0 = Date.parse('2026-06-02T09:00:00Z');

const ATTRIBUTES: VisitAttributes = {
  referrer: 'https://news.ycombinator.com/',
  referrer_source: 'Hacker News',
  click_id_param: '',
  utm_medium: '',
  utm_source: '',
  utm_campaign: '',
  utm_content: '',
  utm_term: '',
  channel: 'Organic Social',
  country_code: 'GB',
  subdivision1_code: '',
  subdivision2_code: '',
  city: '',
  screen_size: 'Desktop',
  device: 'Desktop',
  operating_system: 'Mac',
  operating_system_version: '10.15',
  browser: 'Chrome',
  browser_version: '131.0',
  language: 'en',
};

/** One node: its own connection to the shared Redis, and its own fall-back state. */
interface Node {
  state: SharedState;
  visits: SharedLiveVisits;
  held: SharedHeldEngagements;
}

/**
 * These tests are about visits, not the 100 ms command timeout (test/state/ingestionFallback.test.ts):
 * on this machine's shared cores a command may wait longer, and a fall-back would split a visit.
 */
function patient(state: SharedState): SharedState {
  state.client.options.commandTimeout = 5_000;
  return state;
}

function node(url: string): Node {
  const state = patient(new SharedState(url, silent));
  const held = new SharedHeldEngagements(state, new OrphanEngagements());
  return { state, held, visits: new SharedLiveVisits(state, () => new SessionTracker(), held, { log: silent }) };
}

/** Visitor ids as the pipeline passes them (src/ingest/identity.ts): one object per event, current id first. */
const ids = (...list: string[]) => ({ current: list[0] ?? '', [Symbol.iterator]: () => list[Symbol.iterator]() });

function visitEvent(siteId: number, userId: string, at: number, fields: Partial<VisitEvent> = {}): VisitEvent {
  return {
    siteId,
    userId,
    timestamp: at,
    name: 'pageview',
    hostname: 'example.com',
    pathname: '/',
    interactive: true,
    attributes: ATTRIBUTES,
    props: {},
    classification: '',
    ...fields,
  };
}

function engagementRow(siteId: number, userId: string, at: number): EventRow {
  return eventRow(
    {
      timestamp: clickhouseTime(at),
      site_id: siteId,
      name: 'engagement',
      user_id: userId,
      session_id: '0',
      hostname: 'example.com',
      pathname: '/',
      page_title: '',
      props: {},
      revenue_source_amount: null,
      revenue_source_currency: '',
      scroll_depth: 40,
      engagement_time: 1000,
      interactive: 1,
      tracker_version: '',
      classification: '',
      idempotency_key: '',
    },
    ATTRIBUTES,
  );
}

/**
 * Rows with each visit's random session id replaced by the order it first appeared in, so two
 * trackers' rows compare byte for byte; also checks each cancel row is the visit's last +1 row.
 */
function normaliser() {
  const names = new Map<string, string>();
  const lastWritten = new Map<string, string>();
  const name = (row: SessionRow) => {
    let known = names.get(row.session_id);
    if (!known) {
      known = `visit-${names.size}`;
      names.set(row.session_id, known);
    }
    return JSON.stringify({ ...row, session_id: known });
  };
  return {
    recorded(recorded: RecordedVisit): string[] {
      const rows = recorded.rows.map(name);
      const cancel = recorded.rows.find((row) => row.sign === -1);
      if (cancel) expect(JSON.stringify({ ...cancel, sign: 1 })).toBe(lastWritten.get(cancel.session_id));
      lastWritten.set(recorded.session.session_id, JSON.stringify(recorded.session));
      return rows;
    },
    touched: (row: SessionRow | undefined) => (row ? name(row) : 'none'),
  };
}

let redis: TestRedis;
let admin: Redis;
let a: Node;
let b: Node;
let nextSite = 1;

beforeAll(async () => {
  redis = await startTestRedis();
  admin = new Redis(redis.url, { maxRetriesPerRequest: null });
  admin.on('error', () => {});
  a = node(redis.url);
  b = node(redis.url);
  await Promise.all([a.state.ready(), b.state.ready()]);
  // As if warmed from an empty store already (warming itself is tested with a whole app below).
  await admin.set(VISITS_WARM_KEY, '0');
});
afterAll(async () => {
  await a.state.close();
  await b.state.close();
  admin.disconnect();
  await redis.stop();
});

describe('live visits in Redis, two nodes', () => {
  it('makes one visit of a visitor whose events alternate between the nodes, with the figures of one in-process tracker', async () => {
    const site = nextSite++;
    const local = new SessionTracker();
    const [mine, theirs] = [normaliser(), normaliser()];
    const steps: [number, Partial<VisitEvent>][] = [
      [0, { pathname: '/landing' }],
      [60_000, { pathname: '/pricing', hostname: 'www.example.com' }],
      [5_000, { name: 'Signup', pathname: '/pricing', interactive: false }],
      [20 * 60_000, { pathname: '/signup' }],
      [31 * 60_000, { pathname: '/back' }],
      [1_000, { name: 'Clicked', pathname: '/back' }],
    ];
    let at = T0;
    for (const [i, [gap, fields]] of steps.entries()) {
      at += gap;
      const event = visitEvent(site, '1001', at, fields);
      const shared = await (i % 2 === 0 ? a : b).visits.record(event, ids('1001'));
      expect(mine.recorded(shared)).toEqual(theirs.recorded(await local.record(event, ids('1001'))));
    }
  });

  it('starts one visit when the first events of a visitor reach both nodes at once', async () => {
    for (let round = 0; round < 20; round++) {
      const site = nextSite++;
      const [first, second] = await Promise.all([
        a.visits.record(visitEvent(site, '1001', T0, { pathname: '/a' }), ids('1001')),
        b.visits.record(visitEvent(site, '1001', T0, { pathname: '/b' }), ids('1001')),
      ]);
      expect(first.session.session_id).toBe(second.session.session_id);
      const final = [first, second].find((r) => r.session.events === 2);
      expect(final?.session).toMatchObject({ pageviews: 2, events: 2, is_bounce: 0 });
      expect([first, second].map((r) => r.rows.length).sort()).toEqual([1, 2]);
    }
  });

  it('loses no update of two concurrent events of one visit', async () => {
    const site = nextSite++;
    await a.visits.record(visitEvent(site, '1001', T0), ids('1001'));
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).visits.record(visitEvent(site, '1001', T0 + 1000 + i, { pathname: `/p${i}` }), ids('1001'))),
    );
    const last = await b.visits.record(visitEvent(site, '1001', T0 + 5000, { pathname: '/last' }), ids('1001'));
    expect(last.session).toMatchObject({ pageviews: 22, events: 22 });
  });

  it('joins an engagement sent to node B to the visit begun on node A, and keeps that visit alive', async () => {
    const site = nextSite++;
    const begun = await a.visits.record(visitEvent(site, '1001', T0), ids('1001'));
    const joined = await b.visits.touch(site, ids('1001'), T0 + 25 * 60_000);
    expect(joined).toEqual(begun.session);
    // 29 minutes after the engagement (54 after the pageview) the visit continues.
    const later = await a.visits.record(visitEvent(site, '1001', T0 + 54 * 60_000, { pathname: '/later' }), ids('1001'));
    expect(later.session).toMatchObject({ session_id: begun.session.session_id, pageviews: 2 });
  });

  it('continues a visit found under yesterday’s visitor id', async () => {
    const site = nextSite++;
    const begun = await a.visits.record(visitEvent(site, '2001', T0), ids('2001'));
    const after = await b.visits.record(visitEvent(site, '2002', T0 + 60_000), ids('2002', '2001'));
    expect(after.session).toMatchObject({ session_id: begun.session.session_id, user_id: '2001', pageviews: 2 });
  });

  it('adopts on node A an engagement held on node B before the pageview reached A', async () => {
    const site = nextSite++;
    expect(await b.visits.touch(site, ids('1001'), T0)).toBeUndefined();
    const held = await b.held.hold(site, '1001', engagementRow(site, '1001', T0), T0);
    expect(held?.id).toBeLessThan(0);
    const visitor = ids('1001');
    const recorded = await a.visits.record(visitEvent(site, '1001', T0 + 2000), visitor);
    const adopted = await a.held.adopt(site, visitor, T0 + 2000);
    expect(adopted).toEqual([held]);
    expect(recorded.rows).toHaveLength(1);
    // Adopted once: the next event adopts nothing, and nothing is left to expire.
    const again = ids('1001');
    await b.visits.record(visitEvent(site, '1001', T0 + 3000), again);
    expect(await b.held.adopt(site, again, T0 + 3000)).toEqual([]);
    expect(await a.held.expire(T0 + 60 * 60_000)).toEqual([]);
  });

  it('counts an engagement that found no visit as expired once, whichever nodes housekeep', async () => {
    const site = nextSite++;
    await a.held.hold(site, '1003', engagementRow(site, '1003', T0), T0);
    expect([...(await a.held.expire(T0 + 29 * 60_000)), ...(await b.held.expire(T0 + 29 * 60_000))]).toEqual([]);
    const gone = await Promise.all([a.held.expire(T0 + 31 * 60_000), b.held.expire(T0 + 31 * 60_000), a.held.expire(T0 + 32 * 60_000)]);
    expect(gone.flat().map((h) => [h.siteId, h.userId])).toEqual([[site, '1003']]);
    // An engagement arriving after the expiry of an earlier one is not adopted with it.
    const visitor = ids('1003');
    await b.visits.record(visitEvent(site, '1003', T0 + 33 * 60_000), visitor);
    expect(await b.held.adopt(site, visitor, T0 + 33 * 60_000)).toEqual([]);
  });

  it('returns the in-process tracker’s rows for random event sequences sent to random nodes', async () => {
    const text = fc.oneof(
      fc.constantFrom('', '/', '/ü/ñ', '/a/b?x="y"&z=\\', '/über/日本', 'example.com', 'b.example.org'),
      fc.string({ unit: 'binary', maxLength: 12 }),
    );
    const step = fc.record({
      visitor: fc.integer({ min: 0, max: 2 }),
      nextDay: fc.boolean(),
      gap: fc.oneof(fc.integer({ min: -10_000, max: 120_000 }), fc.integer({ min: 0, max: 40 * 60_000 })),
      kind: fc.constantFrom('pageview', 'pageview', 'custom', 'engagement'),
      interactive: fc.boolean(),
      hostname: text,
      pathname: text,
      node: fc.boolean(),
      props: fc.dictionary(fc.string({ maxLength: 4 }), text, { maxKeys: 2 }),
      referrer: text,
      classification: fc.constantFrom('', '', 'bot'),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        const site = nextSite++;
        const local = new SessionTracker();
        const [shared, inProcess] = [normaliser(), normaliser()];
        const days = [false, false, false];
        let at = T0;
        for (const s of steps) {
          at = Math.max(T0, at + s.gap);
          // After "midnight" a visitor's current id is new and yesterday's is looked for too.
          days[s.visitor] ||= s.nextDay;
          const list = days[s.visitor] ? [`${s.visitor + 1}02`, `${s.visitor + 1}01`] : [`${s.visitor + 1}01`];
          const on = s.node ? a : b;
          if (s.kind === 'engagement') {
            expect(shared.touched(await on.visits.touch(site, ids(...list), at))).toBe(inProcess.touched(await local.touch(site, ids(...list), at)));
            continue;
          }
          const event = visitEvent(site, list[0] ?? '', at, {
            name: s.kind === 'pageview' ? 'pageview' : 'Custom',
            interactive: s.interactive,
            hostname: s.hostname,
            pathname: s.pathname,
            props: s.props,
            attributes: { ...ATTRIBUTES, referrer: s.referrer },
            classification: s.classification,
          });
          const visitor = ids(...list);
          expect(shared.recorded(await on.visits.record(event, visitor))).toEqual(inProcess.recorded(await local.record(event, ids(...list))));
          expect(await on.held.adopt(site, visitor, at)).toEqual([]);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('answers from each node’s own tracker while Redis is stopped, without throwing', async () => {
    const site = nextSite++;
    const closed = Promise.all([next(a.state.client, 'close'), next(b.state.client, 'close')]);
    await redis.stop();
    await closed;
    const first = await a.visits.record(visitEvent(site, '1001', T0), ids('1001'));
    const second = await a.visits.record(visitEvent(site, '1001', T0 + 1000), ids('1001'));
    expect(second.session).toMatchObject({ session_id: first.session.session_id, pageviews: 2 });
    expect(await b.visits.touch(site, ids('1002'), T0)).toBeUndefined();
    expect(await b.held.hold(site, '1002', engagementRow(site, '1002', T0), T0)).toMatchObject({ siteId: site, userId: '1002' });
    expect((await b.held.expire(T0 + 31 * 60_000)).map((h) => h.userId)).toEqual(['1002']);
    expect(a.state.degraded && b.state.degraded).toBe(true);
    const ready = Promise.all([next(a.state.client, 'ready'), next(b.state.client, 'ready')]);
    await redis.start();
    await ready;
  });
});

describe('a whole app with STATE_URL', () => {
  const clock = new ManualClock(Date.parse('2026-06-02T09:00:00Z'));
  let t: TestApp;
  let appRedis: TestRedis;
  let appAdmin: Redis;

  beforeAll(async () => {
    appRedis = await startTestRedis();
    appAdmin = new Redis(appRedis.url, { maxRetriesPerRequest: null });
    appAdmin.on('error', () => {});
    t = await startTestApp({ clock, env: { STATE_URL: appRedis.url, TRUSTED_PROXIES: '127.0.0.1' } });
    if (t.app.state) patient(t.app.state);
  });
  afterAll(async () => {
    await t.close();
    appAdmin.disconnect();
    await appRedis.stop();
  });

  async function newSite() {
    const account = await createAccount(t.app);
    const send = (body: Record<string, unknown>, ip = '81.2.69.142') =>
      collect(t, { d: account.domain, ...body, u: body.u ? `https://${account.domain}${body.u}` : `https://${account.domain}/` }, { ip });
    return { account, send };
  }

  const visits = async (siteId: number) =>
    (
      await stored<Record<string, string | number>>(
        t,
        `SELECT session_id, argMax(entry_page, events) AS v_entry, argMax(exit_page, events) AS v_exit, argMax(pageviews, events) AS v_pageviews,
              max(events) AS v_events, argMax(duration, events) AS v_duration, argMax(is_bounce, events) AS v_bounce
       FROM sessions WHERE site_id = {s:UInt64} GROUP BY session_id HAVING sum(sign) > 0 ORDER BY min(start)`,
        { s: siteId },
      )
    ).map((r) => ({
      entry_page: r.v_entry,
      exit_page: r.v_exit,
      pageviews: Number(r.v_pageviews),
      events: Number(r.v_events),
      duration: Number(r.v_duration),
      is_bounce: Number(r.v_bounce),
    }));

  it('tracks entry, exit, pageviews, duration and bounce, and starts a new visit after 30 idle minutes', async () => {
    clock.set('2026-06-02T09:00:00Z');
    const { account, send } = await newSite();
    await send({ n: 'pageview', u: '/landing' });
    clock.advance(60_000);
    await send({ n: 'pageview', u: '/pricing' });
    clock.advance(29 * 60_000);
    await send({ n: 'pageview', u: '/signup' });
    clock.advance(30 * 60_000 + 1000);
    await send({ n: 'pageview', u: '/back' });
    const [first, second] = await visits(account.siteId);
    expect(first).toMatchObject({ entry_page: '/landing', exit_page: '/signup', pageviews: 3, events: 3, duration: 30 * 60, is_bounce: 0 });
    expect(second).toMatchObject({ entry_page: '/back', pageviews: 1, duration: 0, is_bounce: 1 });
    expect(await appAdmin.exists(VISITS_WARM_KEY)).toBe(1);
  });

  it('feeds an engagement to its visit, and adopts one that arrived before its pageview', async () => {
    clock.set('2026-06-06T11:00:00Z');
    const { account, send } = await newSite();
    expect((await send({ n: 'engagement', u: '/early', sd: 30, e: 1000 }, '81.2.4.4')).headers.get('x-svc-dropped')).toBeNull();
    clock.advance(2000);
    await send({ n: 'pageview', u: '/early' }, '81.2.4.4');
    clock.advance(40_000);
    await send({ n: 'engagement', u: '/early', sd: 80, e: 35_000 }, '81.2.4.4');
    const rows = await stored<{ name: string; session_id: string }>(t, 'SELECT name, session_id FROM events WHERE site_id = {s:UInt64} ORDER BY timestamp', {
      s: account.siteId,
    });
    expect(rows.map((r) => r.name)).toEqual(['engagement', 'pageview', 'engagement']);
    expect(new Set(rows.map((r) => r.session_id)).size).toBe(1);
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
  });

  it('costs one script per event for the visit: pageviews and engagements that join a visit add one round trip, an engagement held adds two', async () => {
    clock.set('2026-06-08T09:00:00Z');
    const { send } = await newSite();
    await send({ n: 'pageview', u: '/warm-up' }, '81.2.7.1');
    const scripts = async () => {
      const info = await appAdmin.info('commandstats');
      const calls = (name: string) => Number(new RegExp(`^cmdstat_${name}:calls=(\\d+)`, 'm').exec(info)?.[1] ?? 0);
      return calls('evalsha') + calls('eval');
    };
    const perEvent = async (events: number, send: (i: number) => Promise<unknown>) => {
      await appAdmin.config('RESETSTAT');
      for (let i = 0; i < events; i++) await send(i);
      return (await scripts()) / events;
    };
    // Each event also takes its address's rate token (src/state/rateLimit.ts): one script of its own.
    const newVisitors = await perEvent(50, (i) => send({ n: 'pageview', u: '/new' }, `81.3.0.${i + 1}`));
    const sameVisit = await perEvent(50, (i) => send({ n: 'pageview', u: `/same/${i}` }, '81.3.1.1'));
    const joining = await perEvent(50, () => send({ n: 'engagement', u: '/same/0', sd: 10, e: 100 }, '81.3.1.1'));
    const held = await perEvent(50, (i) => send({ n: 'engagement', u: '/held', sd: 10, e: 100 }, `81.3.2.${i + 1}`));
    console.info(
      `Redis scripts per event (rate limit included): new visitor ${newVisitors}, same visit ${sameVisit}, engagement joining ${joining}, engagement held ${held}`,
    );
    // Rounded: housekeeping (held engagements' expiry) may run one script meanwhile.
    expect([newVisitors, sameVisit, joining, held].map((n) => Math.round(n * 10) / 10)).toEqual([2, 2, 2, 3]);
  });

  it('continues a visit after Redis restarted empty, warmed from the stored visits', async () => {
    clock.set('2026-06-07T09:00:00Z');
    const { account, send } = await newSite();
    await send({ n: 'pageview', u: '/one' }, '81.2.6.6');
    await t.app.ingestion.buffer.flush();
    await appAdmin.flushall();
    clock.advance(60_000);
    await send({ n: 'pageview', u: '/two' }, '81.2.6.6');
    expect(await visits(account.siteId)).toMatchObject([{ entry_page: '/one', exit_page: '/two', pageviews: 2, duration: 60 }]);
    expect(await appAdmin.exists(VISITS_WARM_KEY)).toBe(1);
  });
});
