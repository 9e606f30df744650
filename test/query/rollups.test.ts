import { beforeAll, describe, expect, it } from 'vitest';
import { runQuery } from '../../src/query/run/engine.js';
import { queryEngineDeps } from '../../src/queryEngine.js';
import { BLOCK_KINDS, blocksEnding, blocksWithin, runsWithin } from '../../src/stores/clickhouse/dailyRollups.js';
import { EVENT_MIGRATIONS } from '../../src/stores/clickhouse/migrations.js';
import { readCoverage } from '../../src/stores/clickhouse/rollupStore.js';
import { updateSite } from '../../src/stores/meta/sites.js';
import { formatDate, parseIsoDate } from '../../src/time/localTime.js';
import { addGoal, type FixtureEvent, insertEvents } from '../support/eventFixtures.js';
import { refusingRollups, watchingStatements } from '../support/refusingRollups.js';
import { type Account, bearer, createAccount } from '../support/testApp.js';
import { answer, RANGE, rollupTestApp } from './rollupTestApp.js';
import { SMALL_SITE } from './smallSite.js';

// Daily roll-ups (src/stores/clickhouse/dailyRollups.ts) answer exactly what raw rows answer:
// each query is asked before the roll-up job runs (raw) and after (roll-ups), on the same data.
const t = rollupTestApp();
const { ask, restarted, rawAnswers } = t;

/** The dashboard's questions and more, all of which a roll-up can answer. */
const QUESTIONS: Record<string, unknown>[] = [
  {
    metrics: ['visitors', 'visits', 'pageviews', 'views_per_visit', 'bounce_rate', 'visit_duration'],
    include: { comparisons: { mode: 'previous_period' } },
  },
  { metrics: ['visitors', 'pageviews'], dimensions: ['time:day'] },
  { metrics: ['visitors', 'visits', 'bounce_rate', 'visit_duration'], dimensions: ['time:week'] },
  { metrics: ['visitors'], dimensions: ['visit:source'] },
  // A breakdown's comparison reads only the groups shown, "Direct / None" being the empty source.
  { metrics: ['visitors', 'bounce_rate'], dimensions: ['visit:source'], include: { comparisons: { mode: 'previous_period' } } },
  { metrics: ['visitors', 'pageviews'], dimensions: ['event:page'], include: { comparisons: { mode: 'previous_period' } } },
  { metrics: ['visitors', 'visits', 'bounce_rate'], dimensions: ['visit:channel'] },
  { metrics: ['visitors', 'pageviews'], dimensions: ['event:page'] },
  { metrics: ['visitors', 'visits', 'bounce_rate', 'visit_duration'], dimensions: ['visit:entry_page'] },
  { metrics: ['visitors', 'visits', 'exit_rate'], dimensions: ['visit:exit_page'] },
  { metrics: ['visitors', 'percentage'], dimensions: ['visit:country'] },
  { metrics: ['visitors'], dimensions: ['visit:device'] },
  { metrics: ['visitors'], dimensions: ['visit:browser', 'visit:browser_version'] },
  { metrics: ['visitors', 'events', 'conversion_rate'], dimensions: ['event:goal'] },
  { metrics: ['visitors', 'events'], dimensions: ['event:name'] },
  { metrics: ['visitors', 'bounce_rate', 'visit_duration'], filters: [['is', 'visit:country', ['DE']]] },
  { metrics: ['visitors', 'bounce_rate'], dimensions: ['visit:source'], filters: [['is_not', 'visit:source', ['Twitter']]] },
  { metrics: ['visitors', 'pageviews'], dimensions: ['event:page'], filters: [['contains', 'event:page', ['pri']]] },
  { metrics: ['visitors', 'conversion_rate'], filters: [['is', 'event:goal', ['Signup']]] },
  // Converted visitors by source are read raw, their whole (every visitor by source) from the roll-ups.
  { metrics: ['visitors', 'conversion_rate'], dimensions: ['visit:source'], filters: [['is', 'event:goal', ['Signup']]] },
  { metrics: ['visitors', 'conversion_rate'], dimensions: ['event:page'], filters: [['is', 'event:goal', ['Signup']]] },
];
describe('roll-ups', () => {
  let account: Account;
  let raw: unknown[];

  beforeAll(async () => {
    account = await createAccount(t.app);
    await insertEvents(t.app, account.siteId, [
      ...SMALL_SITE,
      // Today (10 Jan, before noon): read raw beside the closed days' roll-ups.
      { visitor: 'erin', at: '2024-01-10 08:00:00', page: '/pricing', source: 'Google', country: 'DE', device: 'Mobile', browser: 'Safari' },
      { visitor: 'alice', at: '2024-01-10 09:00:00', page: '/' },
      { visitor: 'alice', at: '2024-01-10 09:01:00', name: 'Signup', page: '/' },
    ]);
    await addGoal(t.app, account.siteId, { eventName: 'Signup' });
    raw = [];
    for (const question of QUESTIONS) {
      const body = await ask(account, { date_range: RANGE, ...question });
      expect(body.meta.sources).toEqual(['raw']);
      raw.push(answer(body));
    }
    await t.app.jobs.runOnce();
  });

  it('rolls up the closed days and answers every dashboard question from them, unchanged', async () => {
    expect(t.app.rollups.coverage(account.siteId)).toMatchObject({ timezone: 'Etc/UTC', through: '2024-01-09' });
    for (const [i, question] of QUESTIONS.entries()) {
      const body = await ask(account, { date_range: RANGE, ...question });
      expect(body.meta.sources, JSON.stringify(question)).toEqual(['rollup', 'raw']);
      expect(answer(body), JSON.stringify(question)).toEqual(raw[i]);
    }
  });

  it('answers closed ranges from roll-ups alone and leaves to raw rows what roll-ups do not hold', async () => {
    const closed = await ask(account, { date_range: ['2024-01-08', '2024-01-09'], metrics: ['visitors', 'pageviews'] });
    expect(closed.meta.sources).toEqual(['rollup']);
    expect(answer(closed)[0].metrics).toEqual([4, 8]);
    // A figure whose parts come from both: raw rows for the converted visitors, roll-ups for the whole.
    const converted = await ask(account, {
      date_range: ['2024-01-08', '2024-01-09'],
      metrics: ['visitors', 'conversion_rate'],
      dimensions: ['visit:source'],
      filters: [['is', 'event:goal', ['Signup']]],
    });
    expect(converted.meta.sources).toEqual(['rollup', 'raw']);
    for (const question of [
      { metrics: ['visitors', 'time_on_page'], dimensions: ['event:page'] },
      { metrics: ['visitors'], dimensions: ['event:props:plan'] },
      { metrics: ['visitors'], dimensions: ['time:hour'] },
      { metrics: ['visitors'], dimensions: ['visit:country'], filters: [['is', 'event:page', ['/']]] },
      { metrics: ['visitors', 'bounce_rate'], filters: [['is', 'event:page', ['/']]] },
      { metrics: ['visitors'], date_range: 'day' },
      // Event counts by a visit attribute: no roll-up keeps pages with countries.
      { metrics: ['visitors', 'pageviews'], filters: [['is', 'visit:country', ['DE']]] },
    ]) {
      const body = await ask(account, { date_range: RANGE, ...question });
      expect(body.meta.sources, JSON.stringify(question)).toEqual(['raw']);
    }
  });

  it('reads raw the last day of a comparison that ends partway through it, and the days before it from roll-ups', async () => {
    // A range still in progress is compared with the same elapsed part of the one before it
    // (src/query/plan/dateRange.ts comparisonRange): up to noon on 8 Jan, and for `month`, ten days
    // so far, the ten days before it up to noon on 31 Dec.
    const site = await createAccount(t.app);
    await insertEvents(t.app, site.siteId, [
      { visitor: 'ann', at: '2023-12-25 10:00:00', page: '/' },
      { visitor: 'ben', at: '2023-12-31 10:00:00', page: '/' },
      { visitor: 'cat', at: '2023-12-31 15:00:00', page: '/after-noon' },
      { visitor: 'ann', at: '2024-01-07 10:00:00', page: '/' },
      { visitor: 'ben', at: '2024-01-08 10:00:00', page: '/' },
      { visitor: 'cat', at: '2024-01-08 15:00:00', page: '/after-noon' },
      { visitor: 'dan', at: '2024-01-09 10:00:00', page: '/' },
      { visitor: 'eve', at: '2024-01-10 09:00:00', page: '/' },
    ]);
    const compared = { include: { comparisons: { mode: 'previous_period' } } };
    const questions = [
      { date_range: ['2024-01-09', '2024-01-10'], metrics: ['visitors', 'pageviews'], ...compared },
      { date_range: 'month', metrics: ['visitors', 'pageviews'], ...compared },
      { date_range: 'month', metrics: ['visitors'], dimensions: ['event:page'], ...compared },
    ];
    const raw = [];
    for (const question of questions) raw.push(answer(await ask(site, question)));
    expect(raw.slice(0, 2).map((results) => results[0].comparison.metrics)).toEqual([
      [2, 2],
      [2, 2],
    ]);
    await t.app.jobs.runOnce();
    for (const [i, question] of questions.entries()) {
      const body = await ask(site, question);
      expect(body.meta.sources, JSON.stringify(question)).toEqual(['rollup', 'raw']);
      expect(answer(body), JSON.stringify(question)).toEqual(raw[i]);
    }
  });

  it('reads a day raw as soon as late rows reach it, and rolls it up again on the next round', async () => {
    const late: FixtureEvent[] = [{ visitor: 'frank', at: '2024-01-08 20:00:00', page: '/late', country: 'NL' }];
    await insertEvents(t.app, account.siteId, late);
    expect(t.app.rollups.coverage(account.siteId)?.through).toBe('2024-01-07');
    const question = { date_range: RANGE, metrics: ['visitors'], dimensions: ['event:page'] };
    const before = await ask(account, question);
    expect(before.meta.sources).toEqual(['raw']);
    expect(answer(before)).toContainEqual({ dimensions: ['/late'], metrics: [1] });
    await t.app.jobs.runOnce();
    const after = await ask(account, question);
    expect(after.meta.sources).toEqual(['rollup', 'raw']);
    expect(answer(after)).toEqual(answer(before));
  });

  it('reads imported history raw until the next round rolls its days up again', async () => {
    const ua = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    const lines = ['2024-01-08T18:00:00Z', '2024-01-08T18:05:00Z'].map((timestamp, i) =>
      JSON.stringify({ timestamp, ip: '81.2.69.142', user_agent: ua, n: 'pageview', u: `https://${account.domain}/imported/${i}` }),
    );
    const res = await fetch(`${t.url}/api/v1/sites/${account.domain}/events/import`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/x-ndjson' },
      body: lines.join('\n'),
    });
    expect(res.status).toBe(200);
    expect(t.app.rollups.coverage(account.siteId)?.through).toBe('2024-01-07');
    const question = {
      date_range: RANGE,
      metrics: ['visitors', 'pageviews'],
      dimensions: ['event:page'],
      filters: [['contains', 'event:page', ['/imported']]],
    };
    const before = await ask(account, question);
    expect(before.meta.sources).toEqual(['raw']);
    expect(answer(before)).toEqual([
      { dimensions: ['/imported/0'], metrics: [1, 1] },
      { dimensions: ['/imported/1'], metrics: [1, 1] },
    ]);
    await t.app.jobs.runOnce();
    const after = await ask(account, question);
    expect(after.meta.sources).toEqual(['rollup', 'raw']);
    expect(answer(after)).toEqual(answer(before));
  });

  it('cuts the days again when the site moves to another time zone', async () => {
    const question = { date_range: RANGE, metrics: ['visitors', 'pageviews'], dimensions: ['time:day'] };
    await updateSite(t.app.meta.db, account.siteId, { timezone: 'America/New_York' }, t.clock.now());
    t.app.ingestion.sites.invalidate(account.siteId);
    const before = await ask(account, question);
    expect(before.meta.sources).toEqual(['raw']);
    await t.app.jobs.runOnce();
    expect(t.app.rollups.coverage(account.siteId)).toMatchObject({ timezone: 'America/New_York', through: '2024-01-09' });
    const after = await ask(account, question);
    expect(after.meta.sources).toEqual(['rollup', 'raw']);
    expect(answer(after)).toEqual(answer(before));
  });
});

describe('a breakdown by source over 40 closed days of a Europe/Berlin site with goals', () => {
  // Pageviews by a visit attribute are events counted by a column only visit roll-ups keep, whose
  // sums hold a visit's every pageview, also those before the range: read raw (docs/rollups.md),
  // beside the visit figures from the roll-ups.
  it('reads its pageviews raw and the rest from roll-ups, as the aggregate, pages and days are read', async () => {
    const account = await createAccount(t.app);
    await updateSite(t.app.meta.db, account.siteId, { timezone: 'Europe/Berlin' }, t.clock.now());
    t.app.ingestion.sites.invalidate(account.siteId);
    const sources = ['Google', 'Twitter', undefined, 'Hacker News'];
    const events: FixtureEvent[] = [];
    for (let day = 0; day < 40; day++) {
      for (let v = 0; v < 3; v++) {
        const at = (minute: number) => new Date(Date.parse('2023-11-30T07:00:00Z') + day * 86_400_000 + v * 3_600_000 + minute * 60_000).toISOString();
        const visitor = `v${(day * 3 + v) % 23}`;
        events.push({ visitor, at: at(0), page: `/p${v}`, source: sources[(day + v) % 4] });
        if ((day + v) % 2 === 0) events.push({ visitor, at: at(5), page: '/pricing' });
        if ((day + v) % 5 === 0) events.push({ visitor, at: at(6), name: 'Signup', page: '/pricing' });
      }
    }
    await insertEvents(t.app, account.siteId, events);
    await addGoal(t.app, account.siteId, { eventName: 'Signup' });
    const range = ['2023-11-30', '2024-01-08'];
    const questions: [Record<string, unknown>, string][] = [
      [{ metrics: ['visitors', 'visits', 'pageviews', 'bounce_rate'], dimensions: ['visit:source'] }, 'rollup,raw'],
      [{ metrics: ['visitors', 'visits', 'bounce_rate', 'visit_duration'], dimensions: ['visit:source'] }, 'rollup'],
      [{ metrics: ['visitors', 'visits', 'pageviews', 'bounce_rate'] }, 'rollup'],
      [{ metrics: ['visitors', 'pageviews'], dimensions: ['event:page'] }, 'rollup'],
      [{ metrics: ['visitors', 'pageviews'], dimensions: ['time:day'] }, 'rollup'],
    ];
    const raw = [];
    for (const [question] of questions) raw.push(answer(await ask(account, { date_range: range, ...question })));
    await t.app.jobs.runOnce();
    expect(t.app.rollups.coverage(account.siteId)).toMatchObject({ timezone: 'Europe/Berlin', through: '2024-01-09' });
    for (const [i, [question, source]] of questions.entries()) {
      const body = await ask(account, { date_range: range, ...question });
      expect(body.meta.sources, JSON.stringify(question)).toEqual(source.split(','));
      expect(answer(body), JSON.stringify(question)).toEqual(raw[i]);
    }
  });
});

describe('a roll-up the engine cannot merge within the memory of one query', () => {
  it('is answered from raw rows instead', async () => {
    const account = await createAccount(t.app);
    await insertEvents(t.app, account.siteId, SMALL_SITE);
    await t.app.jobs.runOnce();
    // The engine's own refusal for any statement reading a roll-up.
    const deps = queryEngineDeps(t.app);
    const refusing = refusingRollups(deps);
    const body = { site_id: account.domain, date_range: ['2024-01-08', '2024-01-09'], metrics: ['visitors', 'pageviews'], dimensions: ['event:page'] };
    const rolled = await runQuery(deps, account.teamId, body);
    expect(rolled.meta.sources).toEqual(['rollup']);
    const fallback = await runQuery(refusing, account.teamId, { ...body, include: { comparisons: { mode: 'previous_period' } } });
    expect(fallback.meta.sources).toEqual(['raw']);
    expect(fallback.results.map((r) => ({ dimensions: r.dimensions, metrics: r.metrics }))).toEqual(rolled.results);
  });
});

describe('a breakdown by visitors from roll-ups', () => {
  // 40 pages with 45, 44 … 6 visitors, each seen once; 60 pages each seen by one visitor on 36
  // days (4 Dec to 8 Jan), so their summed daily counts are far above their visitors (1). The
  // range, 4 Dec to 8 Jan, is read as a week, two runs of two weeks and a day: fewer rows than the
  // window within it (27 Dec to 2 Jan) and the days around that. Their sums are 36.
  const popular: FixtureEvent[] = Array.from({ length: 40 }, (_, page) =>
    Array.from({ length: 45 - page }, (_, visitor) => ({ visitor: `p${page}-${visitor}`, at: `2024-01-0${1 + (visitor % 8)} 10:00:00`, page: `/p${page}` })),
  ).flat();
  const loyal: FixtureEvent[] = Array.from({ length: 60 }, (_, page) =>
    Array.from({ length: 36 }, (_, day) => ({ visitor: `l${page}`, at: new Date(Date.UTC(2023, 11, 4 + day, 9)).toISOString(), page: `/l${page}` })),
  ).flat();

  it('merges only the groups that can reach the page, and every group when the ranking cannot tell', async () => {
    const account = await createAccount(t.app);
    await insertEvents(t.app, account.siteId, [...popular, ...loyal]);
    const body = (limit: number, offset = 0, extra: Record<string, unknown> = {}) => ({
      site_id: account.domain,
      date_range: ['2023-12-04', '2024-01-08'],
      metrics: ['visitors', 'pageviews'],
      dimensions: ['event:page'],
      pagination: { limit, offset },
      ...extra,
    });
    const deps = queryEngineDeps(t.app);
    const pages = [
      [5, 0],
      [10, 3],
      [20, 0],
    ] as const;
    const raw = [];
    for (const [limit, offset] of pages) raw.push((await runQuery(deps, account.teamId, body(limit, offset))).results);
    const window = { date_range: ['2023-12-13', '2024-01-09'] };
    const windowRaw = (await runQuery(deps, account.teamId, body(20, 0, window))).results;
    await t.app.jobs.runOnce();

    const { deps: watched, statements, params } = watchingStatements(deps);
    /** How many groups each read of the pages roll-ups merged (0: the ranking; every group: -1). */
    const merged = () =>
      statements.flatMap((sql, i) => {
        if (!/daily_pages|window_pages/.test(sql)) return [];
        if (sql.includes('c0_bound')) return [0];
        const among = Object.values(params[i]!).find(Array.isArray);
        return [among ? among.length : -1];
      });
    const read = async (limit: number, offset: number, extra: Record<string, unknown> = {}) => {
      statements.length = 0;
      params.length = 0;
      const answer = await runQuery(watched, account.teamId, body(limit, offset, extra));
      expect(answer.meta.sources).toEqual(['rollup']);
      return { results: answer.results, reads: statements.filter((sql) => /daily_pages|window_pages/.test(sql)).length };
    };
    // Six rows are settled by the first ten: the 11th page's sum (35) is below the sixth row's 40 visitors.
    expect(await read(5, 0)).toEqual({ results: raw[0], reads: 2 });
    expect(merged()).toEqual([0, 10]);
    // 14 rows: 18 candidates, then 48, most of them one-visitor pages ranked by their sums of 36,
    // above the 14th row's one visitor: every group is read.
    expect(await read(10, 3)).toEqual({ results: raw[1], reads: 4 });
    expect(merged()).toEqual([0, 18, 48, -1]);
    // 21 rows: 25 candidates, then 62, ranked the same way,
    // above the 21st row's 25 visitors: the leading groups do not settle it, so every group is read.
    expect(await read(20, 0)).toEqual({ results: raw[2], reads: 4 });
    expect(merged()).toEqual([0, 25, 62, -1]);
    // Over the 28 days ending yesterday, merged ahead as one window, each page is one row of its
    // own counts: one read, no ranking, no visitor set.
    expect(await read(20, 0, window)).toEqual({ results: windowRaw, reads: 1 });
    expect(statements.at(-1)).not.toMatch(/uniqMerge|daily_pages/);
    // With today's rows added, the window's sets (one per page, no day row) are merged with them,
    // and the ranking by the window rows' own counts settles the page with the 21 rows and 4 more.
    statements.length = 0;
    params.length = 0;
    const withToday = await runQuery(watched, account.teamId, body(20, 0, { date_range: ['2023-12-13', '2024-01-10'] }));
    expect(withToday.meta.sources).toEqual(['rollup', 'raw']);
    expect(merged()).toEqual([0, 25]);
    expect(statements.join()).not.toMatch(/FROM daily_pages/);
    // A comparison of the page reads only its groups' sets in the earlier range.
    statements.length = 0;
    const compared = await runQuery(
      watched,
      account.teamId,
      body(5, 0, { date_range: ['2024-01-01', '2024-01-09'], include: { comparisons: { mode: 'previous_period' } } }),
    );
    expect(statements.at(-1)).toMatch(/toString\(pathname\) IN/);
    expect(compared.results.map((r) => r.comparison?.metrics)).toEqual(
      (
        await runQuery(
          deps,
          account.teamId,
          body(5, 0, { date_range: ['2024-01-01', '2024-01-09'], include: { comparisons: { mode: 'previous_period' }, total_rows: true } }),
        )
      ).results.map((r) => r.comparison?.metrics),
    );
    // Counting every group reads every group at once.
    expect((await read(5, 0, { include: { total_rows: true } })).reads).toBe(1);

    // Rows rolled up before the count existed get it from migration 5, and answer the same.
    const jobs = t.app.events.jobs;
    await jobs.command({
      query: 'ALTER TABLE daily_pages UPDATE visitor_bound = 0 WHERE site_id = {site:UInt64} SETTINGS mutations_sync = 2',
      query_params: { site: account.siteId },
    });
    for (const statement of EVENT_MIGRATIONS.find((m) => m.name === 'daily_rollups_visitor_bound')!.statements({ cluster: null }))
      await jobs.command({ query: statement });
    const unfilled = await jobs.query({
      query: 'SELECT count() AS n FROM daily_pages WHERE visitor_bound != finalizeAggregation(visitors)',
      format: 'JSONEachRow',
    });
    expect(await unfilled.json()).toEqual([{ n: '0' }]);
    expect(await read(5, 0)).toEqual({ results: raw[0], reads: 2 });

    // Migration 11 copies every roll-up row into tables of small granules. Run again as after a
    // crash anywhere in it (here: the copy made and renamed, its leftover not dropped yet), it
    // neither loses nor doubles a row: the window keeps answering, day rows sum as before.
    const stored = async () => (await jobs.query({ query: 'SELECT count() AS n, sum(pageviews) AS pageviews FROM daily_pages', format: 'JSONEachRow' })).json();
    const before = await stored();
    const rebuild = EVENT_MIGRATIONS.find((m) => m.name === 'rollups_small_granules')!.statements({ cluster: null });
    const exchanged = rebuild.findIndex((statement) => statement.startsWith('EXCHANGE TABLES daily_pages AND'));
    for (const statement of rebuild.slice(0, exchanged + 1)) await jobs.command({ query: statement });
    for (const statement of rebuild) await jobs.command({ query: statement });
    expect(await stored()).toEqual(before);
    expect(await read(5, 0)).toEqual({ results: raw[0], reads: 2 });
    expect(await read(20, 0, window)).toEqual({ results: windowRaw, reads: 1 });
  });
});

describe('week rows', () => {
  it('merge a whole week of day rows, and a range reads them in place of its seven days', async () => {
    const account = await createAccount(t.app);
    await insertEvents(t.app, account.siteId, [
      { visitor: 'a', at: '2024-01-02 10:00:00', page: '/' },
      { visitor: 'a', at: '2024-01-05 10:00:00', page: '/' },
      { visitor: 'b', at: '2024-01-05 11:00:00', page: '/docs' },
      { visitor: 'c', at: '2024-01-09 11:00:00', page: '/docs' },
      // A visit from Sunday night into Monday: it stays in its day rows, read beside the week's.
      { visitor: 'd', at: '2024-01-07 23:50:00', page: '/docs' },
      { visitor: 'd', at: '2024-01-08 00:10:00', page: '/' },
    ]);
    const question = { date_range: ['2024-01-01', '2024-01-09'], metrics: ['visitors', 'pageviews'], dimensions: ['event:page'] };
    const visits = {
      date_range: ['2024-01-01', '2024-01-09'],
      metrics: ['visitors', 'visits', 'bounce_rate', 'visit_duration'],
      dimensions: ['visit:entry_page'],
    };
    const raw = answer(await ask(account, question));
    const rawVisits = answer(await ask(account, visits));
    await t.app.jobs.runOnce();
    const rows = await t.app.events.query.query({
      query:
        // The week's first and last days are looked at in 'runs of two and four weeks'.
        'SELECT days, toString(day) AS day, pathname, uniqMerge(visitors) AS visitors FROM daily_pages WHERE site_id = {site:UInt64} AND days IN (1, 7, 14) GROUP BY days, day, pathname ORDER BY days, day, pathname',
      query_params: { site: account.siteId },
      format: 'JSONEachRow',
    });
    expect(await rows.json()).toEqual([
      { days: 1, day: '2024-01-02', pathname: '/', visitors: '1' },
      { days: 1, day: '2024-01-05', pathname: '/', visitors: '1' },
      { days: 1, day: '2024-01-05', pathname: '/docs', visitors: '1' },
      { days: 1, day: '2024-01-07', pathname: '/docs', visitors: '1' },
      { days: 1, day: '2024-01-08', pathname: '/', visitors: '1' },
      { days: 1, day: '2024-01-09', pathname: '/docs', visitors: '1' },
      { days: 7, day: '2024-01-01', pathname: '/', visitors: '1' },
      { days: 7, day: '2024-01-01', pathname: '/docs', visitors: '2' },
      // The run of two weeks from 2023-12-25 ends on the 7th (dailyRollups.ts RUN_WEEKS).
      { days: 14, day: '2023-12-25', pathname: '/', visitors: '1' },
      { days: 14, day: '2023-12-25', pathname: '/docs', visitors: '2' },
    ]);
    const rolled = await ask(account, question);
    expect(rolled.meta.sources).toEqual(['rollup']);
    expect(answer(rolled)).toEqual(raw);
    expect(raw).toEqual([
      { dimensions: ['/docs'], metrics: [3, 3] },
      { dimensions: ['/'], metrics: [2, 3] },
    ]);
    const rolledVisits = await ask(account, visits);
    expect(rolledVisits.meta.sources).toEqual(['rollup']);
    expect(answer(rolledVisits)).toEqual(rawVisits);
  });
});

describe('runs of two and four weeks', () => {
  it('merge whole runs of day rows, and a range reads the longest that fit in place of their weeks', async () => {
    const account = await createAccount(t.app);
    await insertEvents(t.app, account.siteId, [
      { visitor: 'a', at: '2023-11-21 10:00:00', page: '/' },
      // From the week of the 20th into the run of four weeks from the 27th: read from its day rows.
      { visitor: 'b', at: '2023-11-26 23:50:00', page: '/docs' },
      { visitor: 'b', at: '2023-11-27 00:10:00', page: '/' },
      // Across a week's end within the run: in the run's rows, in neither week's.
      { visitor: 'c', at: '2023-12-03 23:50:00', page: '/' },
      { visitor: 'c', at: '2023-12-04 00:10:00', page: '/docs' },
      { visitor: 'd', at: '2023-12-12 09:00:00', page: '/docs', source: 'Google' },
      { visitor: 'a', at: '2023-12-20 10:00:00', page: '/' },
      // Out of the run into the days after it.
      { visitor: 'e', at: '2023-12-24 23:55:00', page: '/' },
      { visitor: 'e', at: '2023-12-25 00:05:00', page: '/docs' },
      { visitor: 'f', at: '2023-12-26 10:00:00', page: '/', source: 'Google' },
    ]);
    // Whole weeks from the 20th to 24 December: the week of the 20th and the four weeks from the
    // 27th (runs start a multiple of their length after 1970-01-05); no window lies within.
    const date_range = ['2023-11-20', '2023-12-26'];
    const bodies = [
      { site_id: account.domain, date_range, metrics: ['visitors', 'pageviews'], dimensions: ['event:page'] },
      { site_id: account.domain, date_range, metrics: ['visitors', 'visits', 'bounce_rate', 'visit_duration'], dimensions: ['visit:entry_page'] },
      { site_id: account.domain, date_range, metrics: ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration'] },
      { site_id: account.domain, date_range, metrics: ['visitors'], dimensions: ['visit:source'] },
    ];
    const raw = await rawAnswers(account, bodies);
    expect(raw[2]).toEqual([{ dimensions: [], metrics: [6, 7, 10, 57, 429] }]);
    await t.app.jobs.runOnce();
    const runs = await t.app.events.query.query({
      query: 'SELECT days, toString(day) AS day FROM daily_event_totals WHERE site_id = {site:UInt64} AND days > 7 GROUP BY days, day ORDER BY days, day',
      query_params: { site: account.siteId },
      format: 'JSONEachRow',
    });
    expect(await runs.json()).toEqual([
      { days: 14, day: '2023-11-13' },
      { days: 14, day: '2023-11-27' },
      { days: 14, day: '2023-12-11' },
      { days: 14, day: '2023-12-25' },
      // The four weeks from 25 December end after the last day rolled up (9 January).
      { days: 28, day: '2023-10-30' },
      { days: 28, day: '2023-11-27' },
      { days: 56, day: '2023-10-30' },
      { days: 112, day: '2023-09-04' },
    ]);
    // The week of 20 November's first days (from Monday to Tuesday … Saturday: a's visit) and last
    // days (from Tuesday … Saturday to Sunday: b's visit, and a's from Tuesday).
    const edges = await t.app.events.query.query({
      query:
        "SELECT days, toString(day) AS day, uniqMerge(visitors) AS visitors FROM daily_event_totals WHERE site_id = {site:UInt64} AND days BETWEEN 2 AND 6 AND day <= '2023-11-26' GROUP BY days, day ORDER BY day, days",
      query_params: { site: account.siteId },
      format: 'JSONEachRow',
    });
    expect(await edges.json()).toEqual([
      ...[2, 3, 4, 5, 6].map((days) => ({ days, day: '2023-11-20', visitors: '1' })),
      { days: 6, day: '2023-11-21', visitors: '2' },
      { days: 5, day: '2023-11-22', visitors: '1' },
      { days: 4, day: '2023-11-23', visitors: '1' },
      { days: 3, day: '2023-11-24', visitors: '1' },
      { days: 2, day: '2023-11-25', visitors: '1' },
    ]);
    const { deps: watched, statements } = watchingStatements(queryEngineDeps(t.app));
    for (const [i, body] of bodies.entries()) {
      statements.length = 0;
      const answer = await runQuery(watched, account.teamId, body);
      expect(answer.meta.sources, JSON.stringify(body)).toEqual(['rollup']);
      expect(answer.results, JSON.stringify(body)).toEqual(raw[i]);
      expect(statements.join(), JSON.stringify(body)).toMatch(/days = 28/);
      // Monday 25 and Tuesday 26 December: the week's first two days in one row.
      expect(statements.join(), JSON.stringify(body)).toMatch(/days = 2 AND/);
    }

    // A coverage row an older build wrote (migration 13's default): runs from the day after its last day.
    const [row] = await readCoverage(t.app.events.jobs, account.siteId);
    const { runs_from: _, ...older } = { ...row!, site_id: account.siteId, version: Number(row!.latest) + 1 };
    await t.app.events.jobs.insert({
      table: 'rollup_coverage',
      values: [{ site_id: older.site_id, timezone: older.timezone, through: older.through, version: older.version }],
      format: 'JSONEachRow',
    });
    const upgraded = await restarted();
    expect(upgraded.coverage(account.siteId)?.runsFrom).toBe('2024-01-10');
  });

  it('are read only whole and stored, longest first', () => {
    const d = (text: string) => parseIsoDate(text)!;
    const all = d('1970-01-05');
    const within = (monday: string, sunday: string, runsFrom = all, lengths?: number[]) =>
      runsWithin(d(monday), d(sunday), runsFrom, lengths).map((s) => `${s.days / 7}@${formatDate(s.start)}`);
    expect(within('2023-11-20', '2023-12-24')).toEqual(['1@2023-11-20', '4@2023-11-27']);
    expect(within('2023-11-20', '2024-01-21')).toEqual(['1@2023-11-20', '4@2023-11-27', '4@2023-12-25']);
    expect(within('2023-12-25', '2024-04-14')).toEqual(['16@2023-12-25']);
    expect(within('2023-12-25', '2024-04-07')).toEqual(['8@2023-12-25', '4@2024-02-19', '2@2024-03-18', '1@2024-04-01']);
    expect(within('2023-11-20', '2024-01-14')).toEqual(['1@2023-11-20', '4@2023-11-27', '2@2023-12-25', '1@2024-01-08']);
    expect(within('2023-11-20', '2024-01-14', d('2023-12-01'))).toEqual([
      '1@2023-11-20',
      '1@2023-11-27',
      '1@2023-12-04',
      '2@2023-12-11',
      '2@2023-12-25',
      '1@2024-01-08',
    ]);
    expect(within('2023-11-27', '2023-12-24', all, [1])).toHaveLength(4);
    // A range's partial weeks are a week's last days and first days.
    const blocks = (first: string, last: string, runsFrom = all) => blocksWithin(d(first), d(last), runsFrom).map((b) => `${b.days}@${formatDate(b.start)}`);
    expect(blocks('2023-11-22', '2023-12-28')).toEqual(['5@2023-11-22', '28@2023-11-27', '4@2023-12-25']);
    // A lone Sunday or Monday is its day's row, days within one week are day rows, and blocks begin at runsFrom.
    expect(blocks('2023-11-26', '2023-12-04')).toEqual(['7@2023-11-27']);
    expect(blocks('2023-11-21', '2023-11-24')).toEqual([]);
    expect(blocks('2023-11-20', '2023-11-24')).toEqual(['5@2023-11-20']);
    expect(blocks('2023-11-22', '2023-12-06', d('2023-11-23'))).toEqual(['7@2023-11-27', '3@2023-12-04']);
    // The blocks a round stores: each one ending within its days.
    const ending = (days: number, first: string, last: string, kind = 0) => {
      const blocks = blocksEnding(BLOCK_KINDS.filter((k) => k.days === days)[kind]!, d(first), d(last));
      return blocks && [formatDate(blocks.from), formatDate(blocks.to)];
    };
    expect(ending(28, '2023-12-20', '2023-12-24')).toEqual(['2023-11-27', '2023-12-24']);
    expect(ending(28, '2023-12-20', '2023-12-23')).toBeNull();
    expect(ending(14, '2023-11-01', '2023-12-26')).toEqual(['2023-10-30', '2023-12-24']);
    expect(ending(7, '2023-12-20', '2023-12-31')).toEqual(['2023-12-18', '2023-12-31']);
    // Monday to Wednesday, and Friday to Sunday.
    expect(ending(3, '2023-12-20', '2023-12-31')).toEqual(['2023-12-18', '2023-12-27']);
    expect(ending(3, '2023-12-20', '2023-12-31', 1)).toEqual(['2023-12-22', '2023-12-31']);
    expect(ending(3, '2023-12-21', '2023-12-23')).toBeNull();
  });
});

describe('tables of one key', () => {
  it('answer a report by that key from one row per group and span, and migration 14 fills them from the wider tables', async () => {
    const account = await createAccount(t.app);
    const events: FixtureEvent[] = [
      { visitor: 'a', at: '2023-12-20 10:00:00', page: '/', country: 'DE', region: 'DE-BE', city: 'Berlin', browser: 'Firefox', browserVersion: '120' },
      { visitor: 'b', at: '2023-12-21 10:00:00', page: '/', country: 'DE', region: 'DE-BY', city: 'Munich', browser: 'Firefox', browserVersion: '121' },
      { visitor: 'c', at: '2023-12-27 10:00:00', page: '/', country: 'FR', city: 'Paris', source: 'Google', referrer: 'google.com', browser: 'Chrome' },
      { visitor: 'd', at: '2024-01-02 10:00:00', page: '/', source: 'Google', referrer: 'google.de', utmCampaign: 'winter', os: 'Linux' },
      { visitor: 'a', at: '2024-01-08 10:00:00', page: '/docs', country: 'DE', city: 'Hamburg', source: 'Bing', os: 'Linux', osVersion: '6' },
      // Today, read raw beside the days rolled up.
      { visitor: 'e', at: '2024-01-10 08:00:00', page: '/', country: 'DE', city: 'Berlin', source: 'Google', referrer: 'google.com' },
    ];
    await insertEvents(t.app, account.siteId, events);
    const reports = [
      ['visit:country', 'countries'],
      ['visit:source', 'source_names'],
      ['visit:browser', 'browser_names'],
      ['visit:os', 'operating_system_names'],
    ] as const;
    const bodies = reports.flatMap(([dimension]) =>
      [['2023-12-18', '2024-01-09'], ['2023-12-20', '2024-01-10'], 'all'].map((date_range) => ({
        site_id: account.domain,
        date_range,
        metrics: ['visitors', 'visits', 'bounce_rate', 'visit_duration'],
        dimensions: [dimension],
      })),
    );
    const raw = await rawAnswers(account, bodies);
    expect(raw[0]).toEqual([
      { dimensions: ['DE'], metrics: [2, 3, 100, 0] },
      { dimensions: [''], metrics: [1, 1, 100, 0] },
      { dimensions: ['FR'], metrics: [1, 1, 100, 0] },
    ]);
    await t.app.jobs.runOnce();

    const { deps: watched, statements } = watchingStatements(queryEngineDeps(t.app));
    const expectNarrow = async () => {
      for (const [i, body] of bodies.entries()) {
        statements.length = 0;
        const answer = await runQuery(watched, account.teamId, body);
        expect(answer.results, JSON.stringify(body)).toEqual(raw[i]);
        const table = reports.find(([dimension]) => dimension === body.dimensions[0])![1];
        expect(statements.join(), JSON.stringify(body)).toMatch(new RegExp(`FROM (daily|window)_${table}\\b`));
      }
    };
    await expectNarrow();

    // Run again as after a crash anywhere in it (a copy made and renamed, its leftover not dropped
    // yet), migration 14 leaves the same sets and sums; each stored row's bound is its own set's count.
    const jobs = t.app.events.jobs;
    const stored = async () =>
      (
        await jobs.query({
          query: `SELECT days, toString(last_day) AS day, country_code, finalizeAggregation(visitors) AS visitors, visits, bounces, duration, visitor_bound
                  FROM daily_countries WHERE site_id = {site:UInt64} ORDER BY days, day, first_day, country_code`,
          query_params: { site: account.siteId },
          format: 'JSONEachRow',
        })
      ).json<{ days: number; visitor_bound: string; visitors: string }>();
    const before = await stored();
    expect(before.filter((row) => row.days === 1)).toHaveLength(5);
    const migration = EVENT_MIGRATIONS.find((m) => m.name === 'rollups_by_one_key')!.statements({ cluster: null });
    const exchanged = migration.findIndex((statement) => statement.startsWith('EXCHANGE TABLES daily_countries AND'));
    for (const statement of migration.slice(0, exchanged + 1)) await jobs.command({ query: statement });
    for (const statement of migration) await jobs.command({ query: statement });
    const after = await stored();
    const withoutBound = (rows: typeof before) => rows.map(({ visitor_bound: _, ...row }) => row);
    expect(withoutBound(after)).toEqual(withoutBound(before));
    for (const row of after) expect(row.visitor_bound).toBe(row.visitors);
    const upgraded = await restarted();
    expect(upgraded.coverage(account.siteId)?.windows).toEqual([]);
    await upgraded.runOnce([{ id: account.siteId, timezone: 'Etc/UTC', rawEventsFrom: null }], t.clock.now());
    expect(upgraded.coverage(account.siteId)?.windows.some((w) => w.table === 'countries')).toBe(true);
    await t.app.rollups.reload();
    await expectNarrow();
  });
});
