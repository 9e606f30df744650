/**
 * The benchmarks' synthetic site (`npm run bench:query`, `npm run bench:dashboard`): a fresh
 * embedded store loaded straight from ClickHouse's numbers() with BENCH_EVENTS events (default
 * 10,000,000; about a million visitors, 90 days and today up to an hour ago, skewed pages, sources and
 * their referrers, countries with their regions and cities, devices, browsers and operating
 * systems with their versions) and the visits derived from them, served over HTTP.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { createApiKey } from '../src/stores/meta/apiKeys.js';
import { createSite, findLiveSiteByName } from '../src/stores/meta/sites.js';
import { createUserWithTeam } from '../src/stores/meta/users.js';

/**
 * The instant the site is seen from: now, or with BENCH_HOUR=H the last H:00 in its time zone
 * (Europe/Berlin) before now, so a range ending today reads H hours of today's traffic raw at
 * whatever hour the benchmark runs: late in the day is the busy case (docs/benchmarks.md).
 * BENCH_NOW=<ISO instant> names it outright: a kept store (BENCH_STORE) is then seen as it was loaded, on any later day.
 */
function benchNow(): number {
  const fixed = process.env.BENCH_NOW;
  if (fixed !== undefined) {
    const at = Date.parse(fixed);
    if (Number.isNaN(at)) throw new Error(`BENCH_NOW must be an ISO instant such as 2026-11-27T22:00:00Z, not "${fixed}".`);
    return at;
  }
  const hour = process.env.BENCH_HOUR;
  if (hour === undefined) return Date.now();
  if (!/^([01]?\d|2[0-3])$/.test(hour)) throw new Error(`BENCH_HOUR must be an hour from 0 to 23, not "${hour}".`);
  const localHour = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: 'numeric', hourCycle: 'h23' });
  for (let at = Math.floor(Date.now() / 3_600_000) * 3_600_000; ; at -= 3_600_000) {
    if (Number(localHour.format(at)) === Number(hour)) return at;
  }
}

export async function loadSyntheticSite(name: string) {
  const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000_000);
  const DAYS = 90;
  // Sessions hold 1–7 events, four on average; visitors come back for about 2.5 visits each.
  const SESSIONS = Math.round(EVENTS / 4);
  const VISITORS = Math.round(EVENTS / 8.5);

  // BENCH_STORE=<dir> reuses a store a run left (BENCH_KEEP=1), seen from the same instant (BENCH_NOW, or the same day's
  // BENCH_HOUR): loading 100 M events is most of such a run. A directory holding no store yet is loaded and kept.
  const store = process.env.BENCH_STORE;
  const reused = store !== undefined && existsSync(join(store, 'meta.sqlite'));
  if (store !== undefined) mkdirSync(store, { recursive: true });
  const dataDir = store ?? mkdtempSync(join(tmpdir(), `svc-${name}-bench-`));
  const now = benchNow();
  const started = Date.now();
  const clock = { now: () => now + (Date.now() - started) };
  const app = await createApp(loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' }), { clock });
  const url = await app.listen();
  // Rows are loaded straight into the tables, past ingestion's notes to the roll-ups: no round may
  // roll up a half-loaded day. Each bench rolls up by hand when it wants roll-ups.
  await app.jobs.stop();
  const ch = app.events.jobs;
  if (reused) {
    const site = (await findLiveSiteByName(app.meta.db, 'bench.example.com', now))!;
    const user = await app.meta.db.selectFrom('users').select('id').where('email', '=', 'bench@example.com').executeTakeFirstOrThrow();
    const { key } = await createApiKey(app.meta.db, { teamId: site.teamId, userId: user.id, name: 'bench again' }, now);
    // Its closed days are rolled up already, so a bench's "raw only" phase reads roll-ups too.
    console.log(`Reusing the store in ${dataDir}: its days are rolled up already, so "raw only" figures are roll-up figures.\n`);
    return { app, url, site, key, userId: user.id, teamId: site.teamId, now, close: () => app.close() };
  }
  const { userId, teamId } = await createUserWithTeam(app.meta.db, { email: 'bench@example.com', name: 'Bench' }, now);
  const site = await createSite(app.meta.db, { teamId, domain: 'bench.example.com', timezone: 'Europe/Berlin' }, now);
  const { key } = await createApiKey(app.meta.db, { teamId, userId, name: 'bench' }, now);
  await app.meta.db
    .insertInto('goals')
    .values({ site_id: site.id, event_name: 'Signup', page_path: null, display_name: 'Signup', currency: null, created_at: now })
    .execute();
  await app.meta.db
    .insertInto('goals')
    .values({ site_id: site.id, event_name: null, page_path: '/pricing', display_name: 'Visit /pricing', currency: null, created_at: now })
    .execute();

  async function exec(query: string) {
    await ch.command({ query, clickhouse_settings: { max_execution_time: 3600, max_insert_threads: '2' } });
  }

  // ---------------------------------------------------------------------------------------------
  // Load: events generated inside ClickHouse from numbers(), sessions derived from them.
  const loadStart = performance.now();
  const firstDay = Math.floor(now / 86_400_000) * 86_400_000 - DAYS * 86_400_000;
  // Visits start evenly from the first day up to an hour ago (the last ones end by now), so today
  // holds its hours' share: a range ending today reads it raw beside the roll-ups, as on a real site.
  const span = Math.floor((now - firstDay) / 1000) - 3600;
  const pick = (list: string[], u: string) => `[${list.map((v) => `'${v}'`).join(',')}][1 + toUInt32(floor(${u} * ${list.length}))]`;
  // A skewed draw in [0, 1): most mass near 0, so the first entries of each list dominate.
  const skew = (seed: string, power: number) => `pow((sipHash64(s, '${seed}') % 1000000) / 1000000, ${power})`;
  const SOURCES = [
    '',
    'Google',
    '',
    'Google',
    'Bing',
    'Twitter',
    'Facebook',
    'DuckDuckGo',
    'Reddit',
    'GitHub',
    'Hacker News',
    'LinkedIn',
    'Newsletter',
    'Ecosia',
  ];
  const COUNTRIES = ['US', 'DE', 'GB', 'FR', 'IN', 'BR', 'CA', 'NL', 'ES', 'IT', 'PL', 'SE', 'JP', 'AU', 'CH', 'AT', 'BE', 'MX', 'TR', 'ZA'];
  const DEVICES = ['Desktop', 'Mobile', 'Tablet'];
  const BROWSERS = ['Chrome', 'Safari', 'Firefox', 'Edge', 'Samsung Internet', 'Opera'];
  const OSES = ['Windows', 'iOS', 'Android', 'Mac', 'Linux', 'ChromeOS'];
  await exec(`
    INSERT INTO events (timestamp, site_id, name, user_id, session_id, hostname, pathname, referrer_source, referrer, channel,
                        country_code, subdivision1_code, city, device, screen_size, browser, browser_version, operating_system,
                        operating_system_version, props, interactive, classification)
    SELECT
      toDateTime(${Math.floor(firstDay / 1000)} + intDiv(s * ${span}, ${SESSIONS}) + k * (20 + sipHash64(s, k) % 240), 'UTC') AS timestamp,
      ${site.id} AS site_id,
      if(k > 0 AND sipHash64(s, k, 'goal') % 25 = 0, 'Signup', 'pageview') AS name,
      sipHash64('visitor', sipHash64(s, 'v') % ${VISITORS}) AS user_id,
      sipHash64(s, 'session') AS session_id,
      'bench.example.com' AS hostname,
      if(sipHash64(s, k, 'pricing') % 30 = 0, '/pricing', concat('/docs/', toString(toUInt32(floor(pow((sipHash64(s, k, 'p') % 1000000) / 1000000, 4) * 2000))))) AS pathname,
      ${pick(SOURCES, skew('src', 2))} AS referrer_source,
      -- Each source's visits come from up to 50 of its pages, as real referrers do.
      if(referrer_source = '', '', concat('https://', lower(replaceAll(referrer_source, ' ', '')), '.example/', toString(toUInt32(${skew('ref', 2)} * 50)))) AS referrer,
      if(referrer_source = '', 'Direct', 'Organic Search') AS channel,
      ${pick(COUNTRIES, skew('c', 3))} AS country_code,
      -- Ten regions a country, up to 200 cities a region: a country's visitors spread over hundreds of cities.
      concat(country_code, '-', toString(toUInt32(${skew('reg', 2)} * 10))) AS subdivision1_code,
      concat(subdivision1_code, ' city ', toString(toUInt32(${skew('city', 3)} * 200))) AS city,
      ${pick(DEVICES, skew('d', 1.5))} AS device,
      device AS screen_size,
      ${pick(BROWSERS, skew('b', 2))} AS browser,
      toString(100 + toUInt32(${skew('bv', 2)} * 30)) AS browser_version,
      ${pick(OSES, skew('o', 2))} AS operating_system,
      toString(toUInt32(${skew('ov', 2)} * 10)) AS operating_system_version,
      map() AS props,
      1 AS interactive,
      '' AS classification
    FROM (SELECT number AS s, 1 + sipHash64(number, 'len') % 7 AS len FROM numbers(${SESSIONS}))
    ARRAY JOIN range(len) AS k`);
  // One +1 row per visit in its final state, derived in slices to bound memory.
  for (let slice = 0; slice < 8; slice++) {
    await exec(`
      INSERT INTO sessions (session_id, sign, site_id, user_id, hostname, timestamp, start, is_bounce, entry_page, exit_page,
                            exit_page_hostname, pageviews, events, duration, referrer_source, referrer, channel, country_code,
                            subdivision1_code, city, device, screen_size, browser, browser_version, operating_system,
                            operating_system_version, classification)
      SELECT session_id, 1, any(site_id), any(user_id), any(hostname), max(timestamp), min(timestamp),
             countIf(name = 'pageview') <= 1 AND count() = 1, argMin(pathname, timestamp), argMax(pathname, timestamp),
             any(hostname), countIf(name = 'pageview'), count(), dateDiff('second', min(timestamp), max(timestamp)),
             any(referrer_source), any(referrer), any(channel), any(country_code), any(subdivision1_code), any(city), any(device),
             any(screen_size), any(browser), any(browser_version), any(operating_system), any(operating_system_version), ''
      FROM events WHERE site_id = ${site.id} AND session_id % 8 = ${slice}
      GROUP BY session_id`);
  }
  await exec('OPTIMIZE TABLE events FINAL');
  await exec('OPTIMIZE TABLE sessions FINAL');
  const counts = (await (
    await ch.query({
      query: `SELECT (SELECT count() FROM events) AS events, (SELECT uniqExact(user_id) FROM events) AS visitors, (SELECT count() FROM sessions) AS sessions`,
      format: 'JSONEachRow',
    })
  ).json()) as Record<string, string>[];
  console.log(
    `Loaded ${Number(counts[0]!.events).toLocaleString('en')} events, ${Number(counts[0]!.visitors).toLocaleString('en')} visitors, ${Number(counts[0]!.sessions).toLocaleString('en')} visits over ${DAYS} days and today in ${((performance.now() - loadStart) / 1000).toFixed(1)} s.\n`,
  );

  return {
    app,
    url,
    site,
    key,
    userId,
    teamId,
    now,
    /** Closes the app and removes the store, unless BENCH_KEEP=1 asks to keep it for ad-hoc SQL or BENCH_STORE named it. */
    async close() {
      await app.close();
      if (process.env.BENCH_KEEP || store !== undefined) console.log(`Store kept in ${dataDir}, seen from BENCH_NOW=${new Date(now).toISOString()}`);
      else rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
