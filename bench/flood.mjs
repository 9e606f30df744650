// npm run bench:flood — what live visits past LIVE_VISITS_MAX cost under the soak's flood, without
// the HTTP server or the store: the tracker (src/ingest/liveVisits/tracker.ts) with its visits kept
// on disk gets FLOOD_RATE events a second (5,000) on a simulated clock for FLOOD_MINUTES (35), each
// from one of 5.1 million visitors (the perf mix: 50,000 addresses × 102 user agents) drawn
// uniformly. Prints per simulated minute the visits in memory, how many visitors the store would
// have been asked for (each such event waits for a read of the visits table before its 202), how
// many visits the disk could not keep, and the main thread's CPU per event. The read-back here
// answers nothing: the figures are counts, which the machine's load does not change.
//   FLOOD_MINUTES, FLOOD_RATE, LIVE_VISITS_MAX (the default cap by default: 671,088 visits with Node's default heap here).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { SessionTracker } = await import('../dist/ingest/liveVisits/tracker.js');
const { SLOTS_PER_CAPPED_VISIT, SpilledVisits } = await import('../dist/ingest/liveVisits/spilledVisits.js');
const { defaultLiveVisitsMax } = await import('../dist/config/config.js');
const { columnNames, VISIT_ATTRIBUTE_TABLE } = await import('../dist/stores/clickhouse/columns.js');

const MINUTES = Number(process.env.FLOOD_MINUTES ?? 35);
const RATE = Number(process.env.FLOOD_RATE ?? 5000);
const MAX = Number(process.env.LIVE_VISITS_MAX ?? defaultLiveVisitsMax());
const VISITORS = 50_000 * 102;

const dir = mkdtempSync(join(tmpdir(), 'svc-bench-flood-'));
const spill = new SpilledVisits(join(dir, 'evicted.slots'), SLOTS_PER_CAPPED_VISIT * MAX, { error: (obj, msg) => console.error(msg, obj) });
const tally = { readBack: 0, lost: 0 };
const put = spill.put.bind(spill);
spill.put = (visit, siteId, high, low, lost) =>
  put(visit, siteId, high, low, (...key) => {
    tally.lost += 1;
    lost(...key);
  });
const tracker = new SessionTracker({
  max: MAX,
  spill,
  readBack: async (visitors) => {
    tally.readBack += visitors.length;
    return [];
  },
  flush: async () => {},
  writtenThrough: () => Number.POSITIVE_INFINITY,
});
// Every visit attribute of the column table, empty but for a few.
const attributes = {
  ...Object.fromEntries(columnNames(VISIT_ATTRIBUTE_TABLE).map((name) => [name, ''])),
  referrer_source: 'Google',
  channel: 'Organic Search',
  country_code: 'DE',
  subdivision1_code: 'DE-BE',
  city: 'Berlin',
  screen_size: 'Desktop',
  device: 'Desktop',
  operating_system: 'Windows',
  operating_system_version: '10',
  browser: 'Chrome',
  browser_version: '120.0',
  language: 'en',
};

console.log(`bench:flood — ${RATE} events/s for ${MINUTES} simulated minutes from ${VISITORS.toLocaleString('en')} visitors; LIVE_VISITS_MAX ${MAX}`);
console.log('minute  in memory  visitors read back  visits the disk lost  CPU µs/event');
const T0 = Date.parse('2026-06-02T09:00:00Z');
for (let minute = 1; minute <= MINUTES; minute++) {
  const cpu = process.cpuUsage();
  const before = { ...tally };
  for (let i = 0; i < RATE * 60; i++) {
    const visitor = Math.floor(Math.random() * VISITORS);
    const userId = String((BigInt(visitor + 1) * 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn);
    const event = {
      siteId: 1,
      userId,
      timestamp: T0 + (minute - 1) * 60_000 + Math.floor((i * 1000) / RATE),
      name: 'pageview',
      hostname: 'flood.example.com',
      pathname: `/page-${visitor % 50}`,
      interactive: true,
      attributes,
      props: {},
      classification: '',
    };
    tracker.record(event, [userId]);
    // Lets read-backs settle, as the event loop would between requests.
    if (i % 20_000 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  await new Promise((resolve) => setImmediate(resolve));
  const used = process.cpuUsage(cpu);
  const perEvent = (used.user + used.system) / (RATE * 60);
  console.log(
    `${String(minute).padStart(6)} ${String(tracker.size).padStart(10)} ${String(tally.readBack - before.readBack).padStart(19)} ${String(tally.lost - before.lost).padStart(21)} ${perEvent.toFixed(1).padStart(13)}`,
  );
}
spill.close();
rmSync(dir, { recursive: true, force: true });
