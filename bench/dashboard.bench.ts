/**
 * Dashboard benchmark: `npm run bench:dashboard`, the dashboard as a person uses it.
 *
 * Loads the synthetic site of the query benchmark (bench/syntheticSite.ts; BENCH_EVENTS, default
 * 10,000,000), rolls up its closed days, signs a user in and, in Debian's Chromium, opens the
 * dashboard (`?period=91d`), switches the range (Year, All time, 28 days, by their shortcut keys),
 * picks a goal row, removes its chip, picks a page row and removes that chip. Each is timed by the
 * page itself (performance.now()), from the key press or click (navigation start for the first
 * render) to the last change of the page before it is filled and still. The baseline, in the same
 * run: the very queries the page sent for that step, replayed over HTTP one after another (their
 * sum), and the slowest of them alone; a step back to a view seen in the last 30 seconds sends none
 * (web/src/pages/dashboard/view/recentAnswers.ts). Prints p50 of BENCH_RUNS (5) runs and the ratios.
 */
import type { Page } from 'playwright-core';
import { createWebSession } from '../src/stores/meta/webSessions.js';
import { launchBrowser } from '../test/support/browser.js';
import { loadSyntheticSite } from './syntheticSite.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TRACE = Boolean(process.env.BENCH_TRACE);
const { app, url, site, userId, now, close } = await loadSyntheticSite('dashboard');
// The dashboard as a site owner sees it: every closed day rolled up.
await app.rollups.runOnce([{ id: site.id, timezone: site.timezone, rawEventsFrom: null }], now);
const { token, session } = await createWebSession(app.meta.db, userId, app.clock.now());
const browser = await launchBrowser();
const QUERY_PATH = /^\/app\/api\/sites\/[^/]+\/(query|funnel)$/;

/** What the page records of itself, installed before its own scripts run. */
interface Probe {
  /** Query requests not yet answered in full. */
  pending: number;
  /** performance.now() of the last change to the page's elements, and of the last key press or click. */
  changedAt: number;
  actedAt: number;
  /** Each query request: what it asked, when it was sent, its answer began and ended (BENCH_TRACE). */
  log: { asked: string; sentAt: number; answeredAt: number; endedAt: number }[];
}
declare global {
  interface Window {
    dashboardProbe: Probe;
  }
}

/** Runs in the page: counts the query requests (answered once their body is in) and notes every change and action. */
function installProbe(queryPath: string) {
  const probe: Probe = { pending: 0, changedAt: 0, actedAt: 0, log: [] };
  window.dashboardProbe = probe;
  const pattern = new RegExp(queryPath);
  const fetch = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const answer = fetch(input, init);
    const target = input instanceof Request ? input.url : String(input);
    if (!pattern.test(new URL(target, location.href).pathname)) return answer;
    probe.pending++;
    const entry = { asked: String(init?.body ?? ''), sentAt: performance.now(), answeredAt: Number.NaN, endedAt: Number.NaN };
    probe.log.push(entry);
    answer
      .then((response) => {
        entry.answeredAt = performance.now();
        return response.clone().arrayBuffer();
      })
      .catch(() => undefined)
      .finally(() => {
        entry.endedAt = performance.now();
        probe.pending--;
      });
    return answer;
  };
  new MutationObserver(() => {
    probe.changedAt = performance.now();
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const acted = () => {
    probe.actedAt = performance.now();
  };
  window.addEventListener('keydown', acted, true);
  window.addEventListener('click', acted, true);
}

// How long the page must stay unchanged, with nothing asked, to count as filled.
const STILL_MS = 300;

/**
 * Waits until the page is filled, answering the time from the action (0: navigation start) to its
 * last change. Filled: the page changed since the action, every query it sent is answered, nothing is
 * `aria-busy`, the graph has points, no placeholder (`*skeleton*`) is on the screen, and the page
 * has been still for STILL_MS. It counts no panel by name, and a placeholder below the screen (the
 * map, drawn only when scrolled near) does not hold it up.
 */
async function filled(page: Page): Promise<number> {
  await page.waitForFunction(
    (still) => {
      const probe = window.dashboardProbe;
      if (probe.changedAt <= probe.actedAt || probe.pending > 0) return false;
      if (!document.querySelector('.top-stats') || document.querySelector('[aria-busy="true"]')) return false;
      if (Number(document.querySelector('.graph-plot')?.getAttribute('data-points') ?? 0) === 0) return false;
      const onScreen = (element: Element) => {
        const box = element.getBoundingClientRect();
        return box.bottom > 0 && box.top < window.innerHeight && box.width > 0;
      };
      if ([...document.querySelectorAll('[class*="skeleton"]')].some(onScreen)) return false;
      return performance.now() - probe.changedAt >= still;
    },
    STILL_MS,
    { timeout: 120_000, polling: 50 },
  );
  return page.evaluate(() => window.dashboardProbe.changedAt - window.dashboardProbe.actedAt);
}

/** BENCH_TRACE=1: prints a step's queries as the page saw them, in ms from the action: sent, answer begun, answer in. */
async function trace(page: Page, name: string, took: number) {
  const { log, actedAt } = await page.evaluate(() => ({ log: window.dashboardProbe.log, actedAt: window.dashboardProbe.actedAt }));
  console.log(`${name}: filled at ${took.toFixed(0)} ms`);
  // Before the first render's queries: what the page loaded, in ms from navigation start to its start and end.
  if (name === FIRST) {
    const loads = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => ({ path: new URL(e.name).pathname, start: e.startTime, end: (e as PerformanceResourceTiming).responseEnd })),
    );
    for (const load of loads.filter((l) => !QUERY_PATH.test(l.path)))
      console.log(`  ${load.start.toFixed(0).padStart(6)} ${load.end.toFixed(0).padStart(6)}  ${load.path}`);
  }
  for (const entry of log.filter((e) => e.sentAt >= actedAt)) {
    const asked = JSON.parse(entry.asked || '{}') as { dimensions?: string[]; metrics?: string[]; date_range?: unknown; filters?: unknown[] };
    const at = (t: number) => (t - actedAt).toFixed(0).padStart(6);
    const what = [asked.dimensions?.join(',') || '(totals)', asked.metrics?.join(','), JSON.stringify(asked.date_range), JSON.stringify(asked.filters ?? [])];
    console.log(`  ${at(entry.sentAt)} ${at(entry.answeredAt)} ${at(entry.endedAt)}  ${what.join(' ')}`);
  }
}

interface Step {
  name: string;
  /** What the person does; the page is filled and still before it. */
  act(page: Page): Promise<unknown>;
}

const pressed = (key: string) => (page: Page) => page.keyboard.press(key);
const picked = (selector: string) => (page: Page) => page.locator(selector).first().click();
const STEPS: Step[] = [
  { name: 'to Year to date (y)', act: pressed('y') },
  { name: 'to All time (a)', act: pressed('a') },
  { name: 'to Last 28 days (f)', act: pressed('f') },
  { name: 'back to Last 91 days (n)', act: pressed('n') },
  { name: 'pick the goal Signup', act: picked('.panel-row[data-value="Signup"] .row-label') },
  { name: 'remove the goal chip', act: picked('.filter-chips button') },
  { name: 'pick a page row', act: picked('[aria-label="Pages"] .panel-row .row-label') },
  { name: 'remove the page chip', act: picked('.filter-chips button') },
];
const FIRST = 'first render (91 days)';

interface Timing {
  page: number;
  queries: { path: string; body: string }[];
}

/** One person's visit in a fresh browser context: the first render, then every step in turn. */
async function visit(): Promise<Map<string, Timing>> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies([{ name: 'svc_session', value: token, url }]);
  await context.addInitScript(installProbe, QUERY_PATH.source);
  const page = await context.newPage();
  let queries: Timing['queries'] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() === 'POST' && QUERY_PATH.test(path)) queries.push({ path, body: request.postData() ?? '' });
  });
  const timings = new Map<string, Timing>();
  await page.goto(`${url}/${site.domain}?period=91d`, { waitUntil: 'commit' });
  timings.set(FIRST, { page: await filled(page), queries });
  if (TRACE) await trace(page, FIRST, timings.get(FIRST)!.page);
  // Scrolled through once, so the map's drawing (made when first near the screen) falls in no step.
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.waitForTimeout(STILL_MS);
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const step of STEPS) {
    queries = [];
    await step.act(page);
    timings.set(step.name, { page: await filled(page), queries });
    if (TRACE) await trace(page, step.name, timings.get(step.name)!.page);
  }
  await context.close();
  return timings;
}

/** The queries again, one after another, as the signed-in user: their times in order. */
async function replay(queries: Timing['queries']): Promise<number[]> {
  const times: number[] = [];
  for (const query of queries) {
    const begin = performance.now();
    const res = await fetch(`${url}${query.path}`, {
      method: 'POST',
      headers: { cookie: `svc_session=${token}`, 'x-csrf-token': session.csrfToken, 'content-type': 'application/json' },
      body: query.body,
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${query.path} answered ${res.status}: ${query.body}`);
    times.push(performance.now() - begin);
  }
  return times;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

// One visit to warm caches on both paths, then visits and replays alternate.
for (const timing of (await visit()).values()) await replay(timing.queries);
const figures = new Map<string, { page: number[]; sum: number[]; slowest: number[]; queries: number[] }>();
for (const name of [FIRST, ...STEPS.map((step) => step.name)]) figures.set(name, { page: [], sum: [], slowest: [], queries: [] });
for (let run = 0; run < RUNS; run++) {
  for (const [name, timing] of await visit()) {
    const times = await replay(timing.queries);
    const figure = figures.get(name)!;
    figure.page.push(timing.page);
    figure.sum.push(times.reduce((a, b) => a + b, 0));
    figure.slowest.push(Math.max(0, ...times));
    figure.queries.push(timing.queries.length);
  }
}

const ms = (value: number) => `${value.toFixed(0)} ms`.padStart(9);
const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '-').padStart(6);
console.log(`Dashboard of ${site.domain} as a person uses it, p50 of ${RUNS} runs (page: from the action to the last panel filled):`);
console.log(
  `  ${'step'.padEnd(28)} ${'page'.padStart(9)} ${'in a row'.padStart(9)} ${'ratio'.padStart(6)} ${'slowest'.padStart(9)} ${'ratio'.padStart(6)}  queries`,
);
for (const [name, figure] of figures) {
  const [page, sum, slowest] = [median(figure.page), median(figure.sum), median(figure.slowest)];
  console.log(`  ${name.padEnd(28)} ${ms(page)} ${ms(sum)} ${ratio(page, sum)} ${ms(slowest)} ${ratio(page, slowest)}  ${median(figure.queries)}`);
}

await browser.close();
await close();
