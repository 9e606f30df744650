/**
 * Dashboard render benchmark: `npm run bench:dashboard`.
 *
 * Loads the synthetic site of the query benchmark (bench/syntheticSite.ts; BENCH_EVENTS, default
 * 10,000,000), signs a user in, and opens the dashboard (`?period=91d`, every event) in Debian's
 * Chromium, timing from navigation to the top stats filled and to the first full render (top
 * stats, graph and every panel filled). The baseline, in the same run: the very queries the page
 * sent, replayed over HTTP one after another (their sum, and the slowest alone, which no
 * rendering can beat). Prints p50 of BENCH_RUNS (5) runs and the ratios.
 */
import type { Page } from 'playwright-core';
import { createWebSession } from '../src/stores/meta/webSessions.js';
import { launchBrowser } from '../test/support/browser.js';
import { loadSyntheticSite } from './syntheticSite.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const { app, url, site, userId, now, close } = await loadSyntheticSite('dashboard');
// The dashboard as a site owner sees it: every closed day rolled up.
await app.rollups.runOnce([{ id: site.id, timezone: site.timezone, rawEventsFrom: null }], now);
const { token, session } = await createWebSession(app.meta.db, userId, app.clock.now());
const browser = await launchBrowser();
const dashboard = `${url}/${site.domain}?period=91d`;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const statsFilled = (page: Page) =>
  page.waitForFunction(() => {
    const values = [...document.querySelectorAll('.top-stats .stat-value')];
    return values.length > 0 && values.every((value) => (value.textContent ?? '').trim() !== '');
  });
const everythingFilled = (page: Page) =>
  page.waitForFunction(
    () =>
      document.querySelectorAll('.panel').length > 0 &&
      document.querySelectorAll('.panel-skeleton').length === 0 &&
      Number(document.querySelector('.graph-plot')?.getAttribute('data-points') ?? 0) > 0,
    undefined,
    { timeout: 120_000 },
  );

/** One render in a fresh browser context; answers the timings and the query requests the page sent. */
async function render(): Promise<{ stats: number; full: number; queries: { path: string; body: string }[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies([{ name: 'svc_session', value: token, url }]);
  const page = await context.newPage();
  const queries: { path: string; body: string }[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() === 'POST' && /^\/app\/api\/sites\/[^/]+\/(query|funnel)$/.test(path)) queries.push({ path, body: request.postData() ?? '' });
  });
  const start = performance.now();
  await page.goto(dashboard, { waitUntil: 'commit' });
  await statsFilled(page);
  const stats = performance.now() - start;
  await everythingFilled(page);
  const full = performance.now() - start;
  await context.close();
  return { stats, full, queries };
}

/** The page's queries again, one after another, as the signed-in user: their times in order. */
async function replay(queries: { path: string; body: string }[]): Promise<number[]> {
  const times: number[] = [];
  for (const query of queries) {
    const begin = performance.now();
    const res = await fetch(`${url}${query.path}`, {
      method: 'POST',
      headers: { cookie: `svc_session=${token}`, 'x-csrf-token': session.csrfToken, 'content-type': 'application/json' },
      body: query.body,
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${query.path} answered ${res.status}`);
    times.push(performance.now() - begin);
  }
  return times;
}

// One render to warm caches on both paths, then renders and replays alternate.
const warm = await render();
await replay(warm.queries);
const stats: number[] = [];
const full: number[] = [];
const sums: number[] = [];
const slowest: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const result = await render();
  stats.push(result.stats);
  full.push(result.full);
  const times = await replay(result.queries);
  sums.push(times.reduce((a, b) => a + b, 0));
  slowest.push(Math.max(...times));
}

const ms = (value: number) => `${value.toFixed(0)} ms`.padStart(10);
console.log(`Dashboard of ${site.domain}, last 91 days, ${warm.queries.length} queries per render (p50 of ${RUNS} runs):`);
console.log(`  top stats filled            ${ms(median(stats))}`);
console.log(`  first full render           ${ms(median(full))}`);
console.log(`  baseline: queries in a row  ${ms(median(sums))}   ratio ${(median(full) / median(sums)).toFixed(2)}`);
console.log(`  baseline: slowest query     ${ms(median(slowest))}   ratio ${(median(full) / median(slowest)).toFixed(2)}`);

await browser.close();
await close();
