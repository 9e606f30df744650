/**
 * Export benchmark: `npm run bench:export`.
 *
 * Loads the synthetic site (bench/syntheticSite.ts; BENCH_EVENTS, default 1,000,000 here) and
 * downloads its whole export ZIP over HTTP (`GET /api/v1/sites/{site}/export`), reading the
 * stream to its end, while the process's resident memory is sampled. The baseline, in the same
 * run: the raw events alone dumped as CSV straight from the engine (no ZIP, no daily tables),
 * the floor any export of every event stands on. Prints wall times, the ratio, the ZIP's size
 * and the peak resident memory above the level before the download.
 */
import { readFileSync } from 'node:fs';
import { loadSyntheticSite } from './syntheticSite.js';

process.env.BENCH_EVENTS ??= '1000000';
const { app, url, site, key, close } = await loadSyntheticSite('export');

/** Resident memory now, from /proc (the engine's memory is in the same process). */
const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;
const mb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(0)} MB`;

// Baseline: every raw event as CSV from the engine, drained.
const dumpStart = performance.now();
const dump = await app.events.jobs.query({
  query: `SELECT * FROM events WHERE site_id = {site:UInt64} SETTINGS max_execution_time = 600`,
  query_params: { site: site.id },
  format: 'CSV',
});
let dumped = 0;
for await (const rows of dump.stream()) dumped += rows.length;
const dumpMs = performance.now() - dumpStart;

const before = rss();
let peak = before;
const sampler = setInterval(() => {
  peak = Math.max(peak, rss());
}, 50);
const start = performance.now();
const res = await fetch(`${url}/api/v1/sites/${site.domain}/export`, { headers: { authorization: `Bearer ${key}` } });
if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}: ${await res.text()}`);
let bytes = 0;
for await (const chunk of res.body) bytes += chunk.length;
const exportMs = performance.now() - start;
clearInterval(sampler);

console.log(`raw events as CSV from the engine (${dumped.toLocaleString('en')} rows)  ${(dumpMs / 1000).toFixed(1)} s`);
console.log(`export ZIP over HTTP (${mb(bytes)})                          ${(exportMs / 1000).toFixed(1)} s   ratio ${(exportMs / dumpMs).toFixed(2)}`);
console.log(`resident memory: ${mb(before)} before, peak ${mb(peak)} during (+${mb(peak - before)})`);

await close();
