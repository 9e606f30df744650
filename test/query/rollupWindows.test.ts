import { beforeAll, describe, expect, it } from 'vitest';
import { runQuery } from '../../src/query/run/engine.js';
import { queryEngineDeps } from '../../src/queryEngine.js';
import { ROLLUP_TABLES, rollupSelect } from '../../src/stores/clickhouse/dailyRollups.js';
import { EVENT_MIGRATIONS } from '../../src/stores/clickhouse/migrations.js';
import { readCoverage, writeCoverage } from '../../src/stores/clickhouse/rollupStore.js';
import { PRESET_WINDOW_SLOTS, windowKinds } from '../../src/stores/clickhouse/rollupWindows.js';
import { parseIsoDate } from '../../src/time/localTime.js';
import { addGoal, type FixtureEvent, insertEvents } from '../support/eventFixtures.js';
import { watchingStatements } from '../support/refusingRollups.js';
import { type Account, createAccount } from '../support/testApp.js';
import { answer, expectWindowAnswers, PRESET_WINDOWS, rollupTestApp, WINDOWS } from './rollupTestApp.js';
import { SMALL_SITE_NOW } from './smallSite.js';

// Window rows (src/stores/clickhouse/rollupWindows.ts): the ranges the dashboard asks for, merged
// ahead by the roll-up job, answer as raw rows do. How the job merges them (the day so far, around
// midnight, in slices) is in rollupWindowMerges.test.ts.
const t = rollupTestApp();
const { ask, restarted, rawAnswers } = t;

/** Writes a site's coverage row again as it is, but for the window tables it names. */
async function rewriteCoverage(siteId: number, tables: (named: string[]) => string[]) {
  const [row] = await readCoverage(t.app.events.jobs, siteId);
  await writeCoverage(t.app.events.jobs, {
    site_id: siteId,
    timezone: row!.timezone,
    through: row!.through,
    runs_from: row!.runs_from,
    version: Number(row!.latest) + 1,
    windows_computed: Number(row!.computed),
    windows_through: row!.windows_through,
    window_tables: tables(row!.tables),
  });
}

describe('window rows', () => {
  it("are merged from the Mondays of the weeks a site's days reach, thirteen at most", () => {
    const seenFrom = (today: string, first: string) => windowKinds(parseIsoDate(today)!, parseIsoDate(first)!).mondays;
    // Wednesday 10 January 2024: this week's Monday is the 8th, the week before's the 1st.
    expect(seenFrom('2024-01-10', '2024-01-08')).toBe(0);
    expect(seenFrom('2024-01-10', '2024-01-07')).toBe(1);
    expect(seenFrom('2024-01-10', '2024-01-01')).toBe(1);
    expect(seenFrom('2024-01-10', '2023-12-28')).toBe(2);
    expect(seenFrom('2024-01-10', '2023-10-09')).toBe(13);
    expect(seenFrom('2024-01-10', '2020-01-01')).toBe(13);
    // On a Monday, the week that began that day has no window of its own.
    expect(seenFrom('2024-01-08', '2024-01-01')).toBe(1);
  });

  it('merge the ranges ending yesterday once, and a range holding one reads it in place of its days', async () => {
    const account = await createAccount(t.app);
    await insertEvents(t.app, account.siteId, [
      // The Monday thirteen weeks back: every Monday's window holds days of the site.
      { visitor: 'g', at: '2023-10-09 10:00:00', page: '/old' },
      { visitor: 'a', at: '2023-12-28 10:00:00', page: '/' },
      { visitor: 'a', at: '2024-01-04 10:00:00', page: '/' },
      { visitor: 'a', at: '2024-01-04 10:05:00', page: '/docs' },
      { visitor: 'b', at: '2024-01-05 11:00:00', page: '/docs', country: 'DE' },
      { visitor: 'c', at: '2024-01-09 11:00:00', page: '/docs', source: 'Google' },
      // A visit from the day before the 7-day window into it: read from its day rows beside the window.
      { visitor: 'd', at: '2024-01-02 23:50:00', page: '/docs' },
      { visitor: 'd', at: '2024-01-03 00:10:00', page: '/' },
      // Today, read raw beside the window.
      { visitor: 'a', at: '2024-01-10 08:00:00', page: '/' },
      // One goal's events on two pages: merged by name across pages.
      { visitor: 'a', at: '2024-01-04 10:06:00', name: 'Signup', page: '/docs' },
      { visitor: 'b', at: '2024-01-05 11:01:00', name: 'Signup', page: '/' },
    ]);
    await addGoal(t.app, account.siteId, { eventName: 'Signup' });
    await addGoal(t.app, account.siteId, { pagePath: '/doc*', displayName: 'Docs' });
    const questions = [
      { metrics: ['visitors', 'events', 'conversion_rate'], dimensions: ['event:goal'] },
      {
        metrics: ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration', 'views_per_visit'],
        include: { comparisons: { mode: 'previous_period' } },
      },
      { metrics: ['visitors', 'pageviews'], dimensions: ['event:page'] },
      { metrics: ['visitors', 'visits', 'bounce_rate'], dimensions: ['visit:entry_page'] },
      { metrics: ['visitors', 'percentage'], dimensions: ['visit:country'] },
      { metrics: ['visitors'], dimensions: ['visit:source'] },
    ];
    // 7d is the 7 days ending yesterday, the window itself; the next two hold it and more days.
    // The calendar presets and `all` are windows of their own (`month`, `year` and `all` with today
    // read raw beside them), as are days from a Monday to yesterday (with today raw beside them).
    const ranges = [
      '7d',
      ['2024-01-02', '2024-01-10'],
      ['2023-12-20', '2024-01-09'],
      '28d',
      'month',
      'last_month',
      'year',
      '12mo',
      'all',
      ['2023-12-18', '2024-01-09'],
      ['2023-12-18', '2024-01-10'],
      // The picker's "Last 30 days", asked as its days (web/src/pages/dashboard/periods.ts).
      ['2023-12-11', '2024-01-09'],
    ];
    const bodies = ranges.flatMap((date_range) => questions.map((question) => ({ site_id: account.domain, date_range, ...question })));
    const deps = queryEngineDeps(t.app);
    const raw = await rawAnswers(account, bodies);

    await t.app.jobs.runOnce();
    const windows = t.app.rollups.coverage(account.siteId)!.windows;
    expect(windows).toHaveLength(WINDOWS * ROLLUP_TABLES.length);
    // A restarted service reads the published windows at once, from the coverage row that names them.
    expect((await restarted()).coverage(account.siteId)!.windows).toEqual(windows);
    // A row written before the Mondays were counted names them bare: all thirteen weeks'.
    await rewriteCoverage(account.siteId, (tables) => {
      expect(tables).toContain('+mondays:13');
      return tables.map((table) => (table.startsWith('+mondays') ? '+mondays' : table));
    });
    expect((await restarted()).coverage(account.siteId)!.windows).toEqual(windows);
    expect(windows.filter((w) => w.table === 'pages').map(({ days, slot, first, last }) => ({ days, slot, first, last }))).toEqual([
      { days: 7, slot: 0, first: '2024-01-03', last: '2024-01-09' },
      { days: 7, slot: 1, first: '2023-12-27', last: '2024-01-02' },
      { days: 28, slot: 0, first: '2023-12-13', last: '2024-01-09' },
      { days: 28, slot: 1, first: '2023-11-15', last: '2023-12-12' },
      { days: 30, slot: 0, first: '2023-12-11', last: '2024-01-09' },
      { days: 30, slot: 1, first: '2023-11-11', last: '2023-12-10' },
      { days: 91, slot: 0, first: '2023-10-11', last: '2024-01-09' },
      { days: 91, slot: 1, first: '2023-07-12', last: '2023-10-10' },
      { days: 0, slot: 2, first: '2024-01-01', last: '2024-01-09' },
      { days: 0, slot: 3, first: '2023-12-01', last: '2023-12-31' },
      { days: 0, slot: 5, first: '2023-01-01', last: '2023-12-31' },
      { days: 0, slot: 6, first: '1970-01-01', last: '2024-01-09' },
      // The window from Monday 11 Dec is the 30 days'.
      ...['12-25', '12-18', '12-11', '12-04', '11-27', '11-20', '11-13', '11-06', '10-30', '10-23', '10-16', '10-09']
        .map((monday, i) => ({ days: 0, slot: 12 + i, first: `2023-${monday}`, last: '2024-01-09' }))
        .filter((window) => window.first !== '2023-12-11'),
    ]);
    await expectWindowAnswers(deps, account, bodies, raw);
    const { deps: watched, statements, params } = watchingStatements(deps);
    // Each calendar preset and `all` reads its own window, not a shorter one with days beside it
    // (in January the year so far is the month's window).
    const windowSlots = (sql: string, values: Record<string, unknown>) => [...sql.matchAll(/slot = \{(\w+):UInt8\}/g)].map((m) => Number(values[m[1]!]));
    for (const [preset, slot] of Object.entries({ ...PRESET_WINDOW_SLOTS, year: PRESET_WINDOW_SLOTS.month })) {
      statements.length = 0;
      params.length = 0;
      await runQuery(watched, account.teamId, { site_id: account.domain, date_range: preset, metrics: ['visitors'], dimensions: ['event:page'] });
      expect(
        statements.flatMap((sql, i) => windowSlots(sql, params[i]!)),
        preset,
      ).toContain(slot);
    }
    // Days from a Monday to yesterday or today read the window from that Monday; from a Thursday,
    // the window from the next Monday beside the week's last days.
    for (const [date_range, slot] of [
      [['2023-12-18', '2024-01-09'], 13],
      [['2023-12-18', '2024-01-10'], 13],
      [['2023-12-21', '2024-01-10'], 12],
    ] as const) {
      statements.length = 0;
      params.length = 0;
      await runQuery(watched, account.teamId, { site_id: account.domain, date_range, metrics: ['visitors'], dimensions: ['event:page'] });
      expect(statements.flatMap((sql, i) => windowSlots(sql, params[i]!))).toContain(slot);
      // From a Monday to yesterday the window alone: each page's own count, no visitor set merged.
      if (date_range[1] === '2024-01-09') expect(statements.join()).not.toMatch(/uniqMerge/);
    }
    // The picker's "Last 30 days" reads its own window alone.
    statements.length = 0;
    params.length = 0;
    await runQuery(watched, account.teamId, {
      site_id: account.domain,
      date_range: ['2023-12-11', '2024-01-09'],
      metrics: ['visitors'],
      dimensions: ['event:page'],
    });
    expect(statements.flatMap((sql, i) => [...sql.matchAll(/days = \{(\w+):UInt8\}/g)].map((m) => Number(params[i]![m[1]!])))).toContain(30);
    expect(statements.join()).not.toMatch(/uniqMerge/);
    // A report by time needs its days apart.
    statements.length = 0;
    await runQuery(watched, account.teamId, { site_id: account.domain, date_range: '7d', metrics: ['visitors'], dimensions: ['time:day'] });
    expect(statements.join()).not.toMatch(/window_/);

    // A late row drops the windows at once; the next round merges them again, with it.
    await insertEvents(t.app, account.siteId, [{ visitor: 'e', at: '2024-01-05 12:00:00', page: '/late' }]);
    expect(t.app.rollups.coverage(account.siteId)!.windows).toEqual([]);
    expect((await restarted()).coverage(account.siteId)?.windows ?? []).toEqual([]);
    const late = { site_id: account.domain, date_range: '7d', metrics: ['visitors', 'pageviews'], dimensions: ['event:page'] };
    const before = (await runQuery(deps, account.teamId, late)).results;
    expect(before).toContainEqual({ dimensions: ['/late'], metrics: [1, 1] });
    await t.app.jobs.runOnce();
    expect(t.app.rollups.coverage(account.siteId)!.windows).toHaveLength(WINDOWS * ROLLUP_TABLES.length);
    expect((await restarted()).coverage(account.siteId)!.windows).toEqual(t.app.rollups.coverage(account.siteId)!.windows);
    statements.length = 0;
    expect((await runQuery(watched, account.teamId, late)).results).toEqual(before);
    expect(statements.join()).toMatch(/FROM window_pages/);

    // Where `all` starts is read once per coverage and windows; an event before the first day,
    // written late, moves it at once, and the next round's windows keep it.
    const all = { site_id: account.domain, date_range: 'all', metrics: ['visitors'], dimensions: ['time:day'] };
    const allFrom = async () => {
      statements.length = 0;
      const first = (await runQuery(watched, account.teamId, all)).results[0]!.dimensions[0];
      return { first, spanRead: statements.some((sql) => sql.includes("'rolled' AS source")) };
    };
    expect(await allFrom()).toEqual({ first: '2023-10-09', spanRead: true });
    expect(await allFrom()).toEqual({ first: '2023-10-09', spanRead: false });
    await insertEvents(t.app, account.siteId, [{ visitor: 'f', at: '2023-10-02 09:00:00', page: '/' }]);
    expect(await allFrom()).toEqual({ first: '2023-10-02', spanRead: true });
    await t.app.jobs.runOnce();
    expect(await allFrom()).toEqual({ first: '2023-10-02', spanRead: true });
    expect(await allFrom()).toEqual({ first: '2023-10-02', spanRead: false });
    // Over a hundred queries and three rounds, much slower beside another test file on two cores: a ceiling for a hang.
  }, 240_000);
});

describe('a dimension with few groups', () => {
  it('is ranked once per coverage, then merged whole at once, to the same answer', async () => {
    const account = await createAccount(t.app);
    await insertEvents(
      t.app,
      account.siteId,
      ['/a', '/b', '/c'].flatMap((page, i) => Array.from({ length: 3 + i }, (_, v) => ({ visitor: `${page}${v}`, at: `2024-01-0${2 + v} 10:00:00`, page }))),
    );
    await t.app.jobs.runOnce();
    const body = {
      site_id: account.domain,
      date_range: ['2024-01-02', '2024-01-08'],
      metrics: ['visitors'],
      dimensions: ['event:page'],
      pagination: { limit: 9 },
    };
    const { deps: watched, statements } = watchingStatements(queryEngineDeps(t.app));
    // One page's ranking says nothing of how many pages there are.
    await runQuery(watched, account.teamId, { ...body, filters: [['is', 'event:page', ['/a']]] });
    statements.length = 0;
    const first = await runQuery(watched, account.teamId, body);
    expect(statements.some((sql) => sql.includes('c0_bound'))).toBe(true);
    statements.length = 0;
    const again = await runQuery(watched, account.teamId, body);
    expect(statements.some((sql) => sql.includes('c0_bound'))).toBe(false);
    expect(again.results).toEqual(first.results);
    expect(again.results.map((r) => r.metrics[0])).toEqual([5, 4, 3]);
    // A wider range may hold more groups: it is ranked again.
    statements.length = 0;
    await runQuery(watched, account.teamId, { ...body, date_range: ['2024-01-01', '2024-01-08'] });
    expect(statements.some((sql) => sql.includes('c0_bound'))).toBe(true);
  });
});

describe("a coverage row written before the presets' windows", () => {
  it('is read as the six windows it holds, and the next round merges all of them', async () => {
    const account = await createAccount(t.app);
    await insertEvents(t.app, account.siteId, [{ visitor: 'a', at: '2024-01-08 10:00:00', page: '/' }]);
    await t.app.jobs.runOnce();
    const windows = t.app.rollups.coverage(account.siteId)!.windows;
    // As an older build wrote it: the tables alone, without `+presets` or the lengths (`+days:`),
    // which were 7, 28 and 91 days then.
    await rewriteCoverage(account.siteId, (tables) => tables.filter((table) => !table.startsWith('+')));
    const older = await restarted();
    expect(older.coverage(account.siteId)!.windows).toEqual(windows.filter((w) => w.days !== 0 && w.days !== 30));
    await older.runOnce([{ id: account.siteId, timezone: 'Etc/UTC', rawEventsFrom: null }], SMALL_SITE_NOW);
    expect(older.coverage(account.siteId)!.windows).toHaveLength(PRESET_WINDOWS * ROLLUP_TABLES.length);
  });
});

describe('a history with long gaps', () => {
  // A stray event four years back, a few days last June and the last weeks: the 16-week runs
  // (dailyRollups.ts BLOCK_KINDS) that end in the gaps still hold the days before them.
  const EVENTS: FixtureEvent[] = [
    { visitor: 'stray', at: '2020-01-03 10:00:00', page: '/old' },
    { visitor: 'stray', at: '2020-01-03 10:10:00', page: '/' },
    { visitor: 'june', at: '2023-06-01 09:00:00', page: '/' },
    { visitor: 'june', at: '2023-06-03 09:00:00', page: '/june', source: 'Google' },
    { visitor: 'june2', at: '2023-06-03 11:00:00', page: '/june' },
    { visitor: 'dec', at: '2023-12-28 18:00:00', page: '/', source: 'Twitter' },
    { visitor: 'dec', at: '2024-01-08 18:00:00', page: '/pricing' },
  ];
  const RANGES = [['2020-01-01', '2020-06-30'], ['2019-12-30', '2023-12-31'], ['2023-05-29', '2023-10-01'], ['2023-06-03', '2024-01-09'], 'all'];
  const ASKED = [
    { metrics: ['visitors', 'visits', 'pageviews', 'bounce_rate'] },
    { metrics: ['visitors', 'pageviews'], dimensions: ['time:month'] },
    { metrics: ['visitors'], dimensions: ['event:page'] },
    { metrics: ['visitors', 'visits'], dimensions: ['visit:source'] },
  ];
  const siteOf = (siteId: number) => [{ id: siteId, timezone: 'Etc/UTC', rawEventsFrom: null }];
  /** The job's connection, telling `seen` the first day of each chunk of day rows it inserts. */
  const chunksOf = (seen: (firstDay: string) => void) =>
    new Proxy(t.app.events.jobs, {
      get: (target, name) =>
        name === 'command'
          ? (params: Parameters<typeof target.command>[0]) => {
              const firstDay = params.query_params?.firstDay;
              if (/^INSERT INTO daily_/.test(params.query) && typeof firstDay === 'string') seen(firstDay);
              return target.command(params);
            }
          : Reflect.get(target, name),
    });
  let account: Account;
  let raw: unknown[];
  const questions = () => RANGES.flatMap((date_range) => ASKED.map((question) => ({ date_range, ...question })));

  beforeAll(async () => {
    account = await createAccount(t.app);
    await insertEvents(t.app, account.siteId, EVENTS);
    raw = [];
    for (const question of questions()) raw.push(answer(await ask(account, question)));
  });

  it('stops a round after the chunk in hand, and the next round goes on from there', async () => {
    let rollups: Awaited<ReturnType<typeof restarted>> | undefined;
    // The service closing while the first chunk is written.
    rollups = await restarted(chunksOf(() => rollups?.stop()));
    const stopped = await rollups.runOnce(siteOf(account.siteId), SMALL_SITE_NOW);
    expect(stopped.days).toBe(31);
    expect(rollups.coverage(account.siteId)).toMatchObject({ through: '2020-02-02', windows: [] });

    const chunks = new Set<string>();
    const next = await restarted(chunksOf((firstDay) => chunks.add(firstDay)));
    const rolled = await next.runOnce(siteOf(account.siteId), SMALL_SITE_NOW);
    expect(next.coverage(account.siteId)?.through).toBe('2024-01-09');
    expect(rolled.days).toBe(1468 - 31);
    // Not a chunk for every 31 days of the gaps: once past the runs holding the last events, a
    // chunk starts at the next event.
    expect([...chunks].sort()).toEqual([
      '2020-02-03',
      '2020-03-05',
      '2020-04-05',
      '2020-05-06',
      '2023-06-01',
      '2023-07-02',
      '2023-08-02',
      '2023-09-02',
      '2023-10-03',
      '2023-12-28',
    ]);
  });

  it('answers every range over the gaps from roll-ups as raw rows do', async () => {
    await t.app.rollups.reload();
    for (const [i, question] of questions().entries()) {
      const body = await ask(account, question);
      expect(body.meta.sources, JSON.stringify(question)).toContain('rollup');
      expect(answer(body), JSON.stringify(question)).toEqual(raw[i]);
    }
  });
});

describe("today's raw rows beside a window", () => {
  it('groups the raw rows by the columns the query reads, not by every key of the table', () => {
    const pages = ROLLUP_TABLES.find((table) => table.name === 'pages')!;
    // What the job inserts: every key, every state.
    expect(rollupSelect(pages, 'site_id = 1', "'UTC'")).toMatch(
      /uniqState\(session_id\) AS visits.* GROUP BY site_id, days, day, classification, name, hostname, pathname$/,
    );
    // What a ranking of pages reads of today: the path and its visitors' count alone.
    const ranking = rollupSelect(pages, 'site_id = 1', "'UTC'", { columns: ['pathname', 'visitor_bound'] });
    expect(ranking).toMatch(/^SELECT site_id, pathname, CAST\(uniq\(user_id\) AS [^)]*\)\) AS visitor_bound FROM events WHERE .* GROUP BY site_id, pathname$/);
    // The graph by day keeps the day it groups by.
    expect(rollupSelect(pages, 'site_id = 1', "'UTC'", { columns: ['day', 'visitors'] })).toMatch(/GROUP BY site_id, day$/);
  });
});

describe('a graph of visitors by day', () => {
  it('reads each day as one row of its own counts, without a visitor set, and migration 12 fills those rows from the event names', async () => {
    const account = await createAccount(t.app);
    await insertEvents(t.app, account.siteId, [
      // A pageview and a custom event of one visitor: one visitor that day, not one per event name.
      { visitor: 'a', at: '2024-01-06 10:00:00', page: '/' },
      { visitor: 'a', at: '2024-01-06 10:01:00', name: 'Signup', page: '/' },
      { visitor: 'b', at: '2024-01-06 11:00:00', page: '/docs' },
      { visitor: 'a', at: '2024-01-08 09:00:00', page: '/' },
      { visitor: 'c', at: '2024-01-08 12:00:00', name: 'Download', page: '/docs' },
      // A bot's pageview is a row of its own class, left out of the report.
      { visitor: 'x', at: '2024-01-08 13:00:00', page: '/', classification: 'bot' },
      // Today: read raw beside the days rolled up.
      { visitor: 'b', at: '2024-01-10 08:00:00', page: '/' },
      { visitor: 'b', at: '2024-01-10 08:02:00', name: 'Signup', page: '/' },
    ]);
    const graph = (date_range: string[]) => ({
      site_id: account.domain,
      date_range,
      metrics: ['visitors', 'visits', 'pageviews', 'events'],
      dimensions: ['time:day'],
    });
    const ranges = [
      ['2024-01-05', '2024-01-09'],
      ['2024-01-05', '2024-01-10'],
    ];
    const raw = await rawAnswers(account, ranges.map(graph));
    expect(raw[0]).toContainEqual({ dimensions: ['2024-01-06'], metrics: [2, 2, 2, 3] });
    await t.app.jobs.runOnce();

    const { deps: watched, statements } = watchingStatements(queryEngineDeps(t.app));
    const expectOneRowADay = async () => {
      for (const [i, range] of ranges.entries()) {
        statements.length = 0;
        const answer = await runQuery(watched, account.teamId, graph(range));
        expect(answer.meta.sources).toEqual(i === 0 ? ['rollup'] : ['rollup', 'raw']);
        expect(answer.results).toEqual(raw[i]);
        expect(statements.join()).toMatch(/FROM daily_event_totals/);
        expect(statements.join()).toMatch(/sum\(visitor_bound\) AS c0_visitors/);
      }
    };
    await expectOneRowADay();

    // Run again as after a crash anywhere in it (here: the copy made and renamed, its leftover not
    // dropped yet), migration 12 leaves the same day rows, whose own counts answer the same.
    const jobs = t.app.events.jobs;
    const dayRows = async () =>
      (
        await jobs.query({
          query:
            'SELECT toString(day) AS day, classification, finalizeAggregation(visitors) AS visitors, pageviews, events, visitor_bound FROM daily_event_totals WHERE site_id = {site:UInt64} AND days = 1 ORDER BY day, classification',
          query_params: { site: account.siteId },
          format: 'JSONEachRow',
        })
      ).json();
    const before = await dayRows();
    expect(before).toContainEqual({ day: '2024-01-08', classification: 'bot', visitors: '1', pageviews: '1', events: '1', visitor_bound: '1' });
    const migration = EVENT_MIGRATIONS.find((m) => m.name === 'rollup_event_totals')!.statements({ cluster: null });
    const exchanged = migration.findIndex((statement) => statement.startsWith('EXCHANGE TABLES daily_event_totals AND'));
    for (const statement of migration.slice(0, exchanged + 1)) await jobs.command({ query: statement });
    for (const statement of migration) await jobs.command({ query: statement });
    expect(await dayRows()).toEqual(before);
    await expectOneRowADay();

    // The windows published before the table are forgotten, so the next round merges its windows too.
    const upgraded = await restarted();
    expect(upgraded.coverage(account.siteId)?.windows).toEqual([]);
    await upgraded.runOnce([{ id: account.siteId, timezone: 'Etc/UTC', rawEventsFrom: null }], t.clock.now());
    expect(upgraded.coverage(account.siteId)?.windows.some((w) => w.table === 'event_totals')).toBe(true);
  });
});
