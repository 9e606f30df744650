import { describe, expect, it } from 'vitest';
import { queryEngineDeps } from '../../src/queryEngine.js';
import { openRollups } from '../../src/rollups/rollups.js';
import { ROLLUP_TABLES } from '../../src/stores/clickhouse/dailyRollups.js';
import { CHROME_MAC } from '../support/collect.js';
import { addGoal, insertEvents } from '../support/eventFixtures.js';
import { watchingStatements } from '../support/refusingRollups.js';
import { type Account, createAccount } from '../support/testApp.js';
import { expectWindowAnswers, PRESET_WINDOWS, rollupTestApp } from './rollupTestApp.js';
import { SMALL_SITE_NOW } from './smallSite.js';

// How the roll-up job merges window rows (src/stores/clickhouse/rollupWindows.ts) and today's
// rows (src/rollups/daySoFar.ts): up to a cut, around midnight, in slices of their groups or in one
// statement; every answer read from them is the raw rows' answer. The windows' ranges themselves
// are in rollupWindows.test.ts (one app each, so the two files run side by side).
const t = rollupTestApp();
const { restarted, rawAnswers } = t;

describe('the day so far', () => {
  /** A pageview of `path` through the pipeline, at the test clock's time, from one browser. */
  const pageview = (domain: string, path: string) =>
    fetch(`${t.url}/api/event`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'user-agent': CHROME_MAC, 'x-forwarded-for': '203.0.113.77' },
      body: JSON.stringify({ n: 'pageview', u: `https://${domain}${path}`, d: domain }),
    });
  const questions = [
    { metrics: ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration'] },
    { metrics: ['visitors', 'visits', 'bounce_rate'], dimensions: ['visit:source'] },
    { metrics: ['visitors', 'visits', 'visit_duration'], dimensions: ['visit:entry_page'] },
    { metrics: ['visitors', 'pageviews'], dimensions: ['event:page'] },
    { metrics: ['visitors'], dimensions: ['visit:country'] },
  ];
  const ranges = ['month', 'all', ['2024-01-02', '2024-01-10']];

  it("is merged up to a cut and read with the window, the later rows raw, to the answers of raw rows, a visit from the window's last day into today's among them", async () => {
    const account = await createAccount(t.app);
    await insertEvents(t.app, account.siteId, [
      { visitor: 'a', at: '2024-01-08 10:00:00', page: '/' },
      // A visit across midnight into today, and one of today's morning.
      { visitor: 'b', at: '2024-01-09 23:55:00', page: '/docs', source: 'Bing' },
      { visitor: 'b', at: '2024-01-10 00:05:00', page: '/' },
      { visitor: 'c', at: '2024-01-10 09:00:00', page: '/pricing', country: 'DE' },
    ]);
    // One visit through the pipeline on both sides of the cuts (events 11:58, visits 11:28): its
    // first state row before both, that row's cancel and the next state after the visits' cut,
    // a pageview after the events' cut.
    try {
      for (const [at, path] of [
        ['2024-01-10T11:20:00Z', '/a'],
        ['2024-01-10T11:45:00Z', '/b'],
        ['2024-01-10T11:59:00Z', '/c'],
      ] as const) {
        t.clock.set(at);
        expect((await pageview(account.domain, path)).status).toBe(202);
      }
    } finally {
      t.clock.set(SMALL_SITE_NOW);
    }
    await t.app.ingestion!.buffer.flush();
    const bodies = ranges.flatMap((date_range) => questions.map((q) => ({ site_id: account.domain, date_range, ...q })));
    const raw = await rawAnswers(account, bodies);
    // Opened before the job runs: a node beside the one rolling up takes what it publishes.
    const beside = await restarted();
    await t.app.jobs.runOnce();
    const { daySoFar } = t.app.rollups.coverage(account.siteId)!;
    expect(daySoFar).toMatchObject({ cuts: { events: Date.parse('2024-01-10T11:58:00Z'), sessions: Date.parse('2024-01-10T11:28:00Z') } });
    const { deps, params } = watchingStatements(queryEngineDeps(t.app));
    await expectWindowAnswers(deps, account, bodies, raw, ['rollup', 'raw']);

    expect(params.filter((named) => Object.values(named).includes(daySoFar!.computed)).length).toBeGreaterThanOrEqual(bodies.length);
    await beside.reload();
    expect(beside.coverage(account.siteId)!.daySoFar).toEqual(daySoFar);
    // A service starting reads none: rows written back from its journal since may be missing from it.
    expect((await restarted()).coverage(account.siteId)!.daySoFar).toBeUndefined();
  });

  it('is dropped by a row before its cut, and merged again by the next round', async () => {
    const account = await createAccount(t.app);
    await insertEvents(t.app, account.siteId, [
      { visitor: 'a', at: '2024-01-09 10:00:00', page: '/' },
      { visitor: 'b', at: '2024-01-10 08:00:00', page: '/docs' },
    ]);
    await t.app.jobs.runOnce();
    const first = t.app.rollups.coverage(account.siteId)!.daySoFar!;
    expect(first).toBeDefined();
    // A late row of this morning (an import): queries read the day raw again at once.
    await insertEvents(t.app, account.siteId, [{ visitor: 'c', at: '2024-01-10 07:00:00', page: '/late' }]);
    expect(t.app.rollups.coverage(account.siteId)!.daySoFar).toBeUndefined();
    const bodies = ranges.flatMap((date_range) => questions.map((q) => ({ site_id: account.domain, date_range, ...q })));
    const raw = await rawAnswers(account, bodies);
    // Read with the window from today's raw rows alone, the late one among them.
    await expectWindowAnswers(queryEngineDeps(t.app), account, bodies, raw, ['rollup', 'raw']);
    await t.app.jobs.runOnce();
    expect(t.app.rollups.coverage(account.siteId)!.daySoFar!.computed).toBeGreaterThan(first.computed);
    await expectWindowAnswers(queryEngineDeps(t.app), account, bodies, raw, ['rollup', 'raw']);
  });
});

describe('no day so far', () => {
  it('is merged while the store fails the rows ingestion holds, nor for a site with fewer events today than asked', async () => {
    const account = await createAccount(t.app);
    await insertEvents(t.app, account.siteId, [
      { visitor: 'a', at: '2024-01-09 10:00:00', page: '/' },
      { visitor: 'b', at: '2024-01-10 08:00:00', page: '/docs' },
      { visitor: 'c', at: '2024-01-10 09:00:00', page: '/docs' },
    ]);
    await t.app.jobs.runOnce();
    expect(t.app.rollups.coverage(account.siteId)!.daySoFar).toBeDefined();
    const site = { id: account.siteId, timezone: 'Etc/UTC', rawEventsFrom: null };
    const job = (options: { writesFailing: boolean; daySoFarEvents: number }) =>
      openRollups({
        client: t.app.events.jobs,
        cluster: null,
        memoryLimitBytes: t.app.config.query.memoryLimitBytes,
        flushWrites: async () => {},
        writesFailing: () => options.writesFailing,
        daySoFarEvents: options.daySoFarEvents,
        onError: (error) => {
          throw error;
        },
      });
    for (const options of [
      { writesFailing: true, daySoFarEvents: 1 },
      { writesFailing: false, daySoFarEvents: 3 },
    ]) {
      const rollups = await job(options);
      await rollups.runOnce([site], SMALL_SITE_NOW);
      expect(rollups.coverage(account.siteId)!.windows.length, JSON.stringify(options)).toBeGreaterThan(0);
      expect(rollups.coverage(account.siteId)!.daySoFar, JSON.stringify(options)).toBeUndefined();
    }
    const rollups = await job({ writesFailing: false, daySoFarEvents: 2 });
    await rollups.runOnce([site], SMALL_SITE_NOW);
    expect(rollups.coverage(account.siteId)!.daySoFar).toBeDefined();
  });
});

describe('in the two hours after midnight', () => {
  it('reads the presets from windows of their rolled-up days, yesterday raw beside them, and merges them again once yesterday is', async () => {
    const account = await createAccount(t.app);
    await insertEvents(t.app, account.siteId, [
      // The Monday thirteen weeks back: every Monday's window holds days of the site.
      { visitor: 'g', at: '2023-10-09 10:00:00', page: '/old' },
      { visitor: 'a', at: '2023-12-28 10:00:00', page: '/' },
      { visitor: 'a', at: '2024-01-04 10:00:00', page: '/' },
      { visitor: 'b', at: '2024-01-05 11:00:00', page: '/docs', country: 'DE' },
      // Yesterday, not rolled up yet: one visit of its own, one running on from the day before.
      { visitor: 'c', at: '2024-01-09 11:00:00', page: '/docs', source: 'Google' },
      { visitor: 'd', at: '2024-01-08 23:55:00', page: '/docs' },
      { visitor: 'd', at: '2024-01-09 00:10:00', page: '/' },
      // Today, from midnight.
      { visitor: 'a', at: '2024-01-10 00:20:00', page: '/' },
    ]);
    const questions = [
      { metrics: ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration'], include: { comparisons: { mode: 'previous_period' } } },
      { metrics: ['visitors', 'pageviews'], dimensions: ['event:page'] },
      { metrics: ['visitors', 'visits', 'bounce_rate'], dimensions: ['visit:entry_page'] },
      { metrics: ['visitors'], dimensions: ['visit:source'] },
    ];
    const bodies = ['7d', '28d', '91d', 'month'].flatMap((date_range) => questions.map((q) => ({ site_id: account.domain, date_range, ...q })));
    const site = { id: account.siteId, timezone: 'Etc/UTC', rawEventsFrom: null };
    t.clock.set('2024-01-10T00:30:00Z');
    try {
      const raw = await rawAnswers(account, bodies);
      const job = t.app.rollups;
      await job.runOnce([site], t.clock.now());
      const coverage = job.coverage(account.siteId)!;
      expect(coverage.through).toBe('2024-01-08');
      // Each preset's window holds its days up to the last one rolled up; its previous period is whole.
      expect(coverage.windows.filter((w) => w.table === 'pages' && w.days > 0).map(({ days, slot, first, last }) => ({ days, slot, first, last }))).toEqual([
        { days: 7, slot: 0, first: '2024-01-03', last: '2024-01-08' },
        { days: 7, slot: 1, first: '2023-12-27', last: '2024-01-02' },
        { days: 28, slot: 0, first: '2023-12-13', last: '2024-01-08' },
        { days: 28, slot: 1, first: '2023-11-15', last: '2023-12-12' },
        { days: 30, slot: 0, first: '2023-12-11', last: '2024-01-08' },
        { days: 30, slot: 1, first: '2023-11-11', last: '2023-12-10' },
        { days: 91, slot: 0, first: '2023-10-11', last: '2024-01-08' },
        { days: 91, slot: 1, first: '2023-07-12', last: '2023-10-10' },
      ]);
      // A restarted service reads them as they were published.
      expect((await restarted()).coverage(account.siteId)!.windows).toEqual(coverage.windows);
      await expectWindowAnswers(queryEngineDeps(t.app), account, bodies, raw, ['rollup', 'raw']);
      // Once yesterday is closed, the next round merges the windows ending on it.
      t.clock.set('2024-01-10T02:30:00Z');
      await job.runOnce([site], t.clock.now());
      expect(job.coverage(account.siteId)!.windows.find((w) => w.table === 'pages' && w.days === 7 && w.slot === 0)).toMatchObject({
        first: '2024-01-03',
        last: '2024-01-09',
      });
    } finally {
      t.clock.set(SMALL_SITE_NOW);
    }
  });
});

/** A site of 40 events over nine days with a goal, the questions asked of its windows and their raw answers. */
async function windowedSite() {
  const account = await createAccount(t.app);
  const pages = ['/', '/a', '/b', '/c', '/d'];
  await insertEvents(
    t.app,
    account.siteId,
    Array.from({ length: 40 }, (_, i) => ({
      visitor: `v${i % 13}`,
      at: `2024-01-0${1 + (i % 9)} 1${i % 10}:00:00`,
      page: pages[i % pages.length]!,
      ...(i % 7 === 0 && { name: 'Signup' }),
      ...(i % 3 === 0 && { source: 'Google' }),
    })),
  );
  await addGoal(t.app, account.siteId, { eventName: 'Signup' });
  const questions = [
    { metrics: ['visitors', 'events', 'conversion_rate'], dimensions: ['event:goal'] },
    { metrics: ['visitors', 'visits', 'pageviews', 'bounce_rate'] },
    { metrics: ['visitors', 'visits', 'pageviews'], dimensions: ['event:page'] },
    { metrics: ['visitors', 'bounce_rate'], dimensions: ['visit:entry_page'] },
    { metrics: ['visitors'], dimensions: ['visit:source'] },
  ];
  const bodies = ['7d', ['2024-01-01', '2024-01-09']].flatMap((date_range) => questions.map((q) => ({ site_id: account.domain, date_range, ...q })));
  return { account, bodies, raw: await rawAnswers(account, bodies) };
}

/**
 * A job of its own over the test app's store (one engine per process), rolling up `account`'s site
 * alone with `windowSliceBytes` of sets per statement; each statement into window_pages is passed
 * to `seen`.
 */
async function windowJob(account: Account, windowSliceBytes: number | undefined, seen: (query: string, params: Record<string, unknown>) => void) {
  const client = new Proxy(t.app.events.jobs, {
    get: (target, name) =>
      name === 'command'
        ? (params: Parameters<typeof target.command>[0]) => {
            seen(params.query, params.query_params ?? {});
            return target.command(params);
          }
        : Reflect.get(target, name),
  });
  const errors: unknown[] = [];
  const rollups = await openRollups({
    client,
    cluster: null,
    memoryLimitBytes: t.app.config.query.memoryLimitBytes,
    ...(windowSliceBytes !== undefined && { windowSliceBytes }),
    flushWrites: async () => {},
    onError: (error) => errors.push(error),
  });
  await rollups.runOnce([{ id: account.siteId, timezone: 'Etc/UTC', rawEventsFrom: null }], SMALL_SITE_NOW);
  expect(errors).toEqual([]);
  expect(rollups.coverage(account.siteId)!.windows).toHaveLength(PRESET_WINDOWS * ROLLUP_TABLES.length);
  return rollups;
}

describe('window rows too large for one statement', () => {
  it('are merged in slices of their groups, to the same answers', async () => {
    const { account, bodies, raw } = await windowedSite();
    // A job allowed a kilobyte of sets per statement: 32 visitors' sets of events (visitors and visits).
    const slices = { full: [] as number[], regrouped: [] as number[] };
    let blockStatements = 0;
    const rollups = await windowJob(account, 1024, (query, params) => {
      if (query.includes('INTO window_pages')) slices[query.includes('AS regrouped') ? 'regrouped' : 'full'].push(Number(params.slices));
      if (query.includes('INTO daily_pages') && query.includes('AS start')) blockStatements++;
    });
    // Its day rows' sets are too large for every kind of block at once: one statement a kind.
    expect(blockStatements).toBeGreaterThan(1);
    // The 91-day window's pages and every window merged again by column take more than one slice each.
    expect(Math.max(...slices.full)).toBeGreaterThan(1);
    expect(slices.regrouped.length).toBeGreaterThan(1);
    expect(slices.regrouped.every((count) => count === slices.regrouped.length)).toBe(true);

    await expectWindowAnswers({ ...queryEngineDeps(t.app), rollups }, account, bodies, raw);
  });
});

describe("a small site's windows", () => {
  it('are merged in one statement per table, and regrouped in another, to the same answers, as its blocks are in one', async () => {
    const { account, bodies, raw } = await windowedSite();
    const all: string[] = [];
    const rollups = await windowJob(account, undefined, (query) => all.push(query));
    // Its days, then every kind of block ending in them (weeks, runs, a week's first and last days) at once, from one read of the days.
    const daily = all.filter((query) => query.includes('INTO daily_pages'));
    expect(daily).toHaveLength(2);
    expect(new Set(daily[1]!.match(/\{from_\d+:Date\}/g)).size).toBeGreaterThan(1);
    expect(daily[1]).not.toContain('UNION ALL');
    const statements = all.filter((query) => query.includes('INTO window_pages'));
    expect(statements).toHaveLength(2);
    // Every window from one read of the day rows: each row goes to the windows holding it.
    expect(statements[0]).not.toContain('UNION ALL');
    expect(statements[0]!.match(/\{days_\d+:UInt8\}/g)).toHaveLength(PRESET_WINDOWS);
    // Then every regrouping (by none, '*', and by each key) from one read of the full rows.
    expect(statements[1]).toMatch(/ARRAY JOIN arrayFilter\(.*\['\*', /);

    await expectWindowAnswers({ ...queryEngineDeps(t.app), rollups }, account, bodies, raw);
  });
});
