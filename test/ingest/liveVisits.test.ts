import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeLiveVisit, encodeLiveVisit, type LiveVisit, SessionTracker, startVisit, type VisitEvent } from '../../src/ingest/liveVisits/index.js';
import { SpilledVisits } from '../../src/ingest/liveVisits/spilledVisits.js';
import { visitFromRow } from '../../src/ingest/liveVisits/visit.js';
import { toWords } from '../../src/ingest/liveVisits/visitSlots.js';
import { encodeRow, SESSION_COLUMNS, type SessionRow, type VisitAttributes } from '../../src/ingest/rows.js';
import { collect, stored } from '../support/collect.js';
import { ManualClock } from '../support/manualClock.js';
import { bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';

const T0 = Date.parse('2026-06-02T09:00:00Z');

/**
 * Attributes with the variety of a real site: 120 countries, 4,000 places, 1,500 referrers, 102
 * user agents (the perf mix's) on four screen sizes, 60 languages, 6,000 pages. As in real traffic,
 * browser, system and device follow from the user agent, and region and city from the place.
 */
function attributes(i: number): VisitAttributes {
  const place = (i * 7919) % 4000;
  const agent = (i * 31) % 102;
  const country = `C${place % 120}`;
  const referred = i % 3 !== 0;
  const tagged = i % 5 === 0;
  return {
    referrer: referred ? `https://ref-${i % 1500}.example/path/${i % 7}` : '',
    referrer_source: referred ? `Source ${i % 300}` : '',
    click_id_param: i % 50 === 0 ? 'gclid' : '',
    utm_medium: tagged ? `medium-${i % 8}` : '',
    utm_source: tagged ? `newsletter-${i % 40}` : '',
    utm_campaign: tagged ? `campaign-${i % 90}` : '',
    utm_content: i % 25 === 0 ? `content-${i % 30}` : '',
    utm_term: '',
    channel: tagged ? 'Email' : referred ? 'Referral' : 'Direct',
    country_code: country,
    subdivision1_code: `${country}-${place % 9}`,
    subdivision2_code: place % 4 === 0 ? `${country}-${place % 9}-${place % 5}` : '',
    city: `City ${place}`,
    screen_size: ['Desktop', 'Mobile', 'Tablet', 'Laptop'][i % 4] ?? '',
    device: ['Desktop', 'Mobile', 'Tablet'][agent % 3] ?? '',
    operating_system: `OS ${agent % 12}`,
    operating_system_version: `${agent % 12}.${agent % 17}`,
    browser: `Browser ${agent % 25}`,
    browser_version: `${100 + (agent % 40)}.0`,
    language: `l${i % 60}`,
  };
}

function pageview(i: number, at: number, page = `/section-${i % 50}/page-${i % 6000}`): VisitEvent {
  return {
    siteId: 1 + (i % 20),
    userId: String((BigInt(i) * 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn),
    timestamp: at,
    name: 'pageview',
    hostname: `www.site-${i % 20}.example`,
    pathname: page,
    interactive: true,
    attributes: attributes(i),
    props: i % 10 === 0 ? { plan: `plan-${i % 3}` } : {},
    classification: '',
  };
}

const encode = (row: SessionRow) => encodeRow(row, SESSION_COLUMNS);
const sync = <T>(value: T | Promise<T>): T => {
  if (value instanceof Promise) throw new Error('expected an answer from memory');
  return value;
};

describe('live visits in memory', () => {
  it('cost at most 200 bytes each (heap used after 100,000 visits minus before)', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const tracker = new SessionTracker();
    const heap = () => {
      for (let i = 0; i < 3; i += 1) gc();
      return process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    };
    const before = heap();
    const visits = 100_000;
    for (let i = 0; i < visits; i += 1) {
      sync(tracker.record(pageview(i, T0 + i * 10), [pageview(i, 0).userId]));
      // A third of the visits go on to a second page, as a real site's do.
      if (i % 3 === 1) sync(tracker.record(pageview(i, T0 + i * 10 + 5000, `/next/${i % 700}`), [pageview(i, 0).userId]));
    }
    const perVisit = (heap() - before) / visits;
    expect(tracker.size).toBe(visits);
    console.log(`live visit: ${perVisit.toFixed(1)} bytes each over ${visits} visits`);
    expect(perVisit).toBeLessThanOrEqual(200);
  });

  it('cancel a visit with the exact bytes of its previous row', () => {
    const tracker = new SessionTracker();
    const first = sync(tracker.record(pageview(7, T0), [pageview(7, 0).userId]));
    const second = sync(tracker.record({ ...pageview(7, T0 + 61_500, '/pricing'), attributes: attributes(8) }, [pageview(7, 0).userId]));
    const third = sync(tracker.record({ ...pageview(7, T0 + 62_000, '/signup'), name: 'signup' }, [pageview(7, 0).userId]));
    expect(second.rows.map(encode)).toEqual([encode({ ...first.session, sign: -1 }), encode(second.session)]);
    expect(third.rows.map(encode)).toEqual([encode({ ...second.session, sign: -1 }), encode(third.session)]);
    expect(second.session).toMatchObject({ pageviews: 2, events: 2, duration: 61, is_bounce: 0, entry_page: pageview(7, 0).pathname, exit_page: '/pricing' });
    expect(first.session.entry_props).toEqual({});
    // The attributes are the first event's; an engagement returns the state without changing it.
    expect(encode(sync(tracker.touch(first.session.site_id, [pageview(7, 0).userId], T0 + 63_000)) ?? first.session)).toEqual(encode(third.session));
  });

  it('serialise to a short string and back unchanged (the form a shared store keeps)', () => {
    const visit: LiveVisit = { ...startVisit({ ...pageview(10, T0), props: { plan: 'pro', 'quote"d': 'ü\n' } }, '18446744073709551615'), lastSeen: 1780391000 };
    const text = encodeLiveVisit(visit);
    expect(text.length).toBeLessThan(400);
    expect(decodeLiveVisit(visit.siteId, visit.userId, text)).toEqual(visit);
    expect(() => decodeLiveVisit(1, '1', '["1",2]')).toThrow();
  });
});

describe('visits kept on disk when they leave memory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-spill-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const errors: object[] = [];
  const log = { error: (obj: object) => errors.push(obj) };
  const keyOf = (visit: LiveVisit) => [visit.siteId, ...toWords(visit.userId)] as const;

  it('come back unchanged while they can continue, and not after', () => {
    const spill = new SpilledVisits(join(dir, 'a', 'evicted.slots'), 4_000, log);
    const visits = Array.from({ length: 1_000 }, (_, i) => ({ ...startVisit(pageview(i, T0), `${1000 + i}`), lastSeen: Math.floor(T0 / 1000) + i }));
    const lost: number[] = [];
    const lose = (_site: number, _high: number, low: number) => lost.push(low);
    for (const visit of visits) spill.put(visit, ...keyOf(visit), lose);
    expect(lost).toEqual([]);
    for (const visit of visits) expect(spill.find(...keyOf(visit), visit.userId, T0 + 60_000)).toEqual(visit);
    // 30 minutes after its last activity a visit is over; the next second it is not found.
    const first = visits[0] as LiveVisit;
    expect(spill.find(...keyOf(first), first.userId, (first.lastSeen + 1800) * 1000)).toEqual(first);
    expect(spill.find(...keyOf(first), first.userId, (first.lastSeen + 1801) * 1000)).toBeUndefined();
    // Another site's visitor with the same id is another visit.
    expect(spill.find(first.siteId + 1, ...toWords(first.userId), first.userId, T0)).toBeUndefined();
    // Kept again after it continued: the newer state is found, not the older.
    const next = { ...first, pageviews: 2, events: 2, exitPage: '/pricing', lastSeen: first.lastSeen + 60 };
    spill.put(next, ...keyOf(next), lose);
    expect(spill.find(...keyOf(next), next.userId, T0 + 120_000)).toEqual(next);
    expect(lost).toEqual([]);
    spill.close();
    expect(() => statSync(join(dir, 'a', 'evicted.slots'))).toThrow();
    expect(errors).toEqual([]);
  });

  it('leave a visit too long for a slot, or pushed out of a full bucket, to the store', () => {
    const spill = new SpilledVisits(join(dir, 'b', 'evicted.slots'), 32, log);
    const at = Math.floor(T0 / 1000);
    const lost: string[] = [];
    const lose = (site: number, high: number, low: number) => lost.push(`${site}:${(BigInt(high) << 32n) | BigInt(low)}`);
    const visit = { ...startVisit(pageview(1, T0), '5'), lastSeen: at };
    spill.put(visit, ...keyOf(visit), lose);
    expect(lost).toEqual([]);
    // Its next state no longer fits: the older copy must not be found in its place.
    const long = { ...visit, pageviews: 2, exitPage: `/${'x'.repeat(600)}`, lastSeen: at + 10 };
    spill.put(long, ...keyOf(long), lose);
    expect(lost).toEqual([`${visit.siteId}:${visit.userId}`]);
    expect(spill.find(...keyOf(visit), visit.userId, T0 + 20_000)).toBeUndefined();
    // One bucket of thirty-two: the 33rd live visit takes the slot of the one seen longest ago, which is lost.
    lost.length = 0;
    const many = Array.from({ length: 33 }, (_, i) => ({ ...startVisit(pageview(100 + i, T0), `${200 + i}`), lastSeen: at + 100 + i }));
    for (const v of many) spill.put(v, ...keyOf(v), lose);
    const found = many.map((v) => spill.find(...keyOf(v), v.userId, T0 + 200_000) !== undefined);
    expect(found).toEqual([false, ...Array.from({ length: 32 }, () => true)]);
    expect(lost).toEqual([`${many[0]?.siteId}:${many[0]?.userId}`]);
    // A visit taken back into memory gives up its slot: the next one to keep takes it and nothing is lost.
    lost.length = 0;
    const back = many[5] as LiveVisit;
    expect(spill.find(...keyOf(back), back.userId, T0 + 200_000)).toEqual(back);
    spill.release(...keyOf(back));
    expect(spill.find(...keyOf(back), back.userId, T0 + 200_000)).toBeUndefined();
    const newcomer = { ...startVisit(pageview(400, T0), '500'), lastSeen: at + 140 };
    spill.put(newcomer, ...keyOf(newcomer), lose);
    expect(lost).toEqual([]);
    // Releasing what another use of the file followed frees nothing.
    const other = many[6] as LiveVisit;
    spill.find(...keyOf(other), other.userId, T0 + 200_000);
    spill.put(newcomer, ...keyOf(newcomer), lose);
    spill.release(...keyOf(other));
    expect(spill.find(...keyOf(other), other.userId, T0 + 200_000)).toEqual(other);
    // A slot whose visit is over is free again: nothing live is lost for it.
    const later = { ...startVisit(pageview(500, T0), '600'), lastSeen: at + 140 + 1801 };
    spill.put(later, ...keyOf(later), lose);
    expect(lost).toEqual([]);
    spill.close();
  });

  it('ask the store only for the visits the disk lost', async () => {
    // Of 60 visits sent out of memory, every fifth is too long for a slot on disk: the store is asked for those 12 only.
    const spill = new SpilledVisits(join(dir, 'd', 'evicted.slots'), 4_000, log);
    const stored = new Map<string, LiveVisit>();
    const asked: string[] = [];
    const readBack = async (visitors: ReadonlyArray<{ siteId: number; userIds: string[] }>) => {
      const ids = visitors.flatMap((v) => v.userIds);
      asked.push(...ids);
      return ids.flatMap((id) => (stored.has(id) ? [stored.get(id) as LiveVisit] : []));
    };
    const capped = new SessionTracker({ max: 10, spill, readBack });
    const uncapped = new SessionTracker();
    const send = async (i: number, at: number) => {
      const event = pageview(i, at, i % 5 === 0 ? `/${'x'.repeat(600)}` : `/p-${i}`);
      const expected = await uncapped.record(event, [event.userId]);
      const got = await capped.record(event, [event.userId]);
      // What the store would hold: every visit's last written state.
      const { rows } = got;
      const last = rows[rows.length - 1] as SessionRow;
      stored.set(event.userId, visitFromRow(last, Math.floor(at / 1000)));
      return { got: got.session.pageviews, expected: expected.session.pageviews };
    };
    for (let i = 0; i < 70; i += 1) await send(i, T0 + i * 1000);
    const back = [];
    for (let i = 0; i < 70; i += 1) back.push(await send(i, T0 + 600_000 + i * 1000));
    expect(back.map((b) => b.got)).toEqual(back.map((b) => b.expected));
    expect(back.every((b) => b.got === 2)).toBe(true);
    // Sixty left memory; forty-eight found on disk, twelve read back (a Bloom filter may add a rare extra).
    expect(asked.length).toBeGreaterThanOrEqual(12);
    expect(asked.length).toBeLessThan(15);
    spill.close();
  });

  it('give the tracker past its cap the figures of one that kept every visit, without reading the store', () => {
    // Room for every visitor: which bucket a visit lands in is the hash's, and a full one sends it to the store.
    const spill = new SpilledVisits(join(dir, 'c', 'evicted.slots'), 4_000, log);
    const readBack = () => {
      throw new Error('the store was asked although every evicted visit is on disk');
    };
    const capped = new SessionTracker({ max: 100, spill, readBack });
    const uncapped = new SessionTracker();
    for (let round = 0; round < 3; round += 1) {
      for (let i = 0; i < 300; i += 1) {
        const event = pageview(i, T0 + round * 600_000 + i * 100, `/round-${round}/${i % 7}`);
        const expected = sync(uncapped.record(event, [event.userId]));
        const got = sync(capped.record(event, [event.userId]));
        // Visit ids are drawn at random: each tracker's own stands in the same place.
        const same = (rows: SessionRow[]) => rows.map((row) => encode({ ...row, session_id: '0' }));
        expect(same(got.rows)).toEqual(same(expected.rows));
      }
    }
    expect(capped.size).toBe(100);
    spill.close();
  });
});

describe('past LIVE_VISITS_MAX', () => {
  const clock = new ManualClock(T0);
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ clock, env: { TRUSTED_PROXIES: '127.0.0.1', LIVE_VISITS_MAX: '1000' } });
  });
  afterAll(() => t?.close());

  it('evicts the least recently seen visits and brings them back, from disk or the visits table, with the figures they would have had', async () => {
    const account = await createAccount(t.app, { hourlyLimit: 100_000 });
    const ip = (i: number) => `81.${2 + Math.floor(i / 60_000)}.${Math.floor(i / 250) % 240}.${1 + (i % 250)}`;
    const send = (i: number, body: Record<string, unknown>) =>
      collect(t, { d: account.domain, ...body, u: `https://${account.domain}${body.u ?? '/'}` }, { ip: ip(i) }).then((r) => expect(r.status).toBe(202));
    const inBatches = async (ids: number[], each: (i: number) => Promise<void>) => {
      for (let k = 0; k < ids.length; k += 50) await Promise.all(ids.slice(k, k + 50).map(each));
    };
    const visitors = 2_500;
    const all = Array.from({ length: visitors }, (_, i) => i);
    // Expected figures, by the visit rules alone (what an uncapped tracker gives).
    const pages = new Map<number, number>();
    const duration = new Map<number, number>();

    // Every visitor lands, one second apart per batch: far more than the 1,000 kept in memory.
    for (let k = 0; k < visitors; k += 50) {
      // Every fifth visit is too long for a slot on disk (its referrer): those come back from the visits table.
      const referrer = (i: number) => `https://ref-${i % 30}.example/${i % 5 === 0 ? 'a-long-path/'.repeat(50) : ''}`;
      await inBatches(all.slice(k, k + 50), (i) => send(i, { n: 'pageview', u: `/landing-${i % 40}`, r: referrer(i) }));
      clock.advance(1000);
    }
    for (const i of all) pages.set(i, 1).set(i, 1) && duration.set(i, 0);
    const landed = clock.now();

    // The earliest visitors (long evicted) come back within the half hour; some only send an engagement first.
    clock.set(T0 + 10 * 60_000);
    const returning = all.filter((i) => i % 4 === 0);
    await inBatches(returning, (i) => send(i, { n: i % 8 === 0 ? 'engagement' : 'pageview', u: '/pricing', e: 5000, sd: 40 }));
    for (const i of returning) {
      if (i % 8 === 0) continue;
      pages.set(i, 2);
      duration.set(i, Math.floor((clock.now() - (T0 + Math.floor(i / 50) * 1000)) / 1000));
    }
    // Those kept alive only by their engagement continue their visit 25 minutes later (past 30 since they landed).
    clock.set(T0 + 35 * 60_000);
    const engaged = all.filter((i) => i % 8 === 0);
    await inBatches(engaged, (i) => send(i, { n: 'pageview', u: '/signup' }));
    for (const i of engaged) {
      pages.set(i, 2);
      duration.set(i, Math.floor((clock.now() - (T0 + Math.floor(i / 50) * 1000)) / 1000));
    }
    expect(landed).toBeLessThan(T0 + 10 * 60_000);

    await t.app.ingestion.buffer.flush();
    const res = await fetch(
      `${t.url}/api/v1/stats/aggregate?site_id=${account.domain}&period=day&date=2026-06-02&metrics=visitors,visits,pageviews,bounce_rate,visit_duration`,
      { headers: bearer(account.key) },
    );
    expect(res.status).toBe(200);
    const { results } = (await res.json()) as { results: Record<string, { value: number }> };
    const totalPages = [...pages.values()].reduce((a, b) => a + b, 0);
    const bounces = [...pages.values()].filter((n) => n === 1).length;
    const totalDuration = [...duration.values()].reduce((a, b) => a + b, 0);
    expect({
      visitors: results.visitors?.value,
      visits: results.visits?.value,
      pageviews: results.pageviews?.value,
      bounce_rate: results.bounce_rate?.value,
      visit_duration: results.visit_duration?.value,
    }).toEqual({
      visitors,
      visits: visitors,
      pageviews: totalPages,
      bounce_rate: Math.round((bounces / visitors) * 100),
      visit_duration: Math.round(totalDuration / visitors),
    });
    // Each visit was continued, never begun twice, and its rows collapse to one state.
    const [sessions] = await stored<{ visits: number; net: number }>(
      t,
      'SELECT uniqExact(session_id) AS visits, sum(sign) AS net FROM sessions WHERE site_id = {s:UInt64}',
      { s: account.siteId },
    );
    expect({ visits: Number(sessions?.visits), net: Number(sessions?.net) }).toEqual({ visits: visitors, net: visitors });
    const [orphans] = await stored<{ n: number }>(t, "SELECT count() AS n FROM events WHERE site_id = {s:UInt64} AND name = 'engagement' AND session_id = 0", {
      s: account.siteId,
    });
    expect(Number(orphans?.n ?? 0)).toBe(0);
  });
});
