// npm run bench:soak — memory under a long flood of new visitors (docs/benchmarks.md). The ingestion
// bench's load (keep-alive connections sending as fast as the service answers) for SOAK_MINUTES
// (35 by default), from the perf mix of 50,000 addresses × 102 user agents, so nearly every event
// starts a visit. Reads the service's RSS every 5 s and prints each minute's mean and highest
// sample with its heap; passes when no sample reaches 1 GB and RSS is flat once the first visits
// have expired: the mean of minutes 31 on at most 10 % above that of minutes 11–30 (the cap is
// reached by minute 10). A trend, not the spread of a few samples: the heap's collections swing
// RSS within a minute, so the spread of one sample a minute gave the same build very different
// verdicts, and read a collection's fall as growth.
//   SOAK_MINUTES, SOAK_CONCURRENCY (32), SOAK_HEAP_MB (--max-old-space-size of the service),
//   LIVE_VISITS_MAX and CLICKHOUSE_MEMORY_LIMIT_MB (passed to the service; unset = their defaults).
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { browsers, pages, referrers } from './traffic.mjs';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 35);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 32);
const LIMIT_MB = 1024;
const STEADY_FROM_MINUTE = 31;
const SETTLED_FROM_MINUTE = 11;
const MB = 1024 * 1024;

if (process.argv[2] === '--serve') await serve(process.argv[3]);
else await soak();

/** The service, as bench/serviceServer.mjs starts it, answering the parent's questions about its memory. */
async function serve(dataDir) {
  const { createApp } = await import('../dist/app.js');
  const { loadConfig } = await import('../dist/config/config.js');
  const { createSite } = await import('../dist/stores/meta/sites.js');
  const { createUserWithTeam } = await import('../dist/stores/meta/users.js');
  const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', TRUSTED_PROXIES: '127.0.0.1' };
  // The process's memory is bounded by these two settings, not by traffic.
  for (const name of ['LIVE_VISITS_MAX', 'CLICKHOUSE_MEMORY_LIMIT_MB']) if (process.env[name]) env[name] = process.env[name];
  const config = loadConfig(env);
  const app = await createApp(config);
  const { teamId } = await createUserWithTeam(app.meta.db, { email: 'soak@example.com', name: 'Soak' }, Date.now());
  await createSite(app.meta.db, { teamId, domain: 'soak.example.com', timezone: 'Etc/UTC' }, Date.now());
  const url = await app.listen();
  process.send?.({ url, liveVisitsMax: config.liveVisitsMax });
  process.on('message', async (message) => {
    if (message === 'memory') {
      const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
      // What the embedded engine's own allocator counts (its caches, merges, inserts, queries).
      const tracked = await app.events.query.query({ query: "SELECT value FROM system.metrics WHERE metric = 'MemoryTracking'", format: 'JSONEachRow' });
      const [{ value: engine = 0 } = {}] = await tracked.json();
      process.send?.({ rss, heapUsed, heapTotal, external, arrayBuffers, engine: Number(engine) });
    } else if (message === 'stop') {
      await app.close();
      process.exit(0);
    }
  });
}

async function soak() {
  // The perf mix: 50,000 addresses × 102 user agents, every pair equally likely.
  // The ingestion bench's browser families, and Edge.
  const families = [
    ...browsers,
    (v) => `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 Safari/537.36 Edg/${v}.0.0.0`,
  ];
  const agents = Array.from({ length: 102 }, (_, i) => families[i % families.length](90 + Math.floor(i / families.length)));
  const addresses = Array.from({ length: 50_000 }, (_, i) => `${81 + (i % 60)}.${(i >> 8) % 256}.${i % 256}.${((i * 7) % 250) + 1}`);
  const pick = (list) => list[Math.floor(Math.random() * list.length)];
  const nextEvent = () => {
    const body = {
      d: 'soak.example.com',
      n: Math.random() < 0.85 ? 'pageview' : 'Signup',
      u: `https://soak.example.com${pick(pages)}`,
      r: pick(referrers),
      w: 360 + Math.floor(Math.random() * 1600),
    };
    return { body: JSON.stringify(body), ua: pick(agents), ip: pick(addresses) };
  };

  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-soak-'));
  const execArgv = process.env.SOAK_HEAP_MB ? [`--max-old-space-size=${process.env.SOAK_HEAP_MB}`] : [];
  const child = fork(new URL(import.meta.url), ['--serve', dataDir], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv });
  const [ready] = await once(child, 'message');
  const exited = once(child, 'exit');
  let died = false;
  void exited.then(() => {
    died = true;
  });
  // The embedded engine's memory is the process's too: RSS as the kernel counts it, in bytes.
  const procStatus = () => readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const bytesOf = (status, field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  const rssNow = () => bytesOf(procStatus(), 'VmRSS');
  const memory = async () => {
    child.send('memory');
    const [m] = await once(child, 'message');
    const status = procStatus();
    // File-backed pages are mostly the engine's library text (libchdb.so, ~560 MB on disk), which
    // the kernel may drop and read again; anonymous pages are what the process really holds.
    return { ...m, rss: bytesOf(status, 'VmRSS') || m.rss, rssAnon: bytesOf(status, 'RssAnon'), rssFile: bytesOf(status, 'RssFile') };
  };

  console.log(
    `bench:soak — ${MINUTES} min, ${CONCURRENCY} keep-alive connections, 50,000 addresses × 102 user agents; LIVE_VISITS_MAX ${ready.liveVisitsMax}` +
      (process.env.SOAK_HEAP_MB ? `, --max-old-space-size=${process.env.SOAK_HEAP_MB}` : '') +
      (process.env.CLICKHOUSE_MEMORY_LIMIT_MB ? `, CLICKHOUSE_MEMORY_LIMIT_MB ${process.env.CLICKHOUSE_MEMORY_LIMIT_MB}` : ''),
  );
  const start = await memory();
  console.log(
    `minute  events/s      sent   non-202   RSS mean MB   RSS max MB   anon MB   file MB   engine MB   heap used MB   heap total MB   array buffers MB`,
  );
  const row = (label, rate, sent, failed, m, mean, max) =>
    console.log(
      `${String(label).padStart(6)} ${String(rate).padStart(9)} ${String(sent).padStart(9)} ${String(failed).padStart(9)} ${(mean / MB).toFixed(0).padStart(13)} ${(max / MB).toFixed(0).padStart(12)} ${(m.rssAnon / MB).toFixed(0).padStart(9)} ${(m.rssFile / MB).toFixed(0).padStart(9)} ${(m.engine / MB).toFixed(0).padStart(11)} ${(m.heapUsed / MB).toFixed(0).padStart(14)} ${(m.heapTotal / MB).toFixed(0).padStart(15)} ${(m.arrayBuffers / MB).toFixed(0).padStart(18)}`,
    );
  row(0, '-', 0, 0, start, start.rss, start.rss);

  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const target = new URL('/api/event', ready.url);
  const tally = { sent: 0, failed: 0, dropped: {} };
  const until = Date.now() + MINUTES * 60_000;
  const one = () =>
    new Promise((resolve) => {
      const event = nextEvent();
      const req = request(
        target,
        { method: 'POST', agent, headers: { 'content-type': 'text/plain', 'user-agent': event.ua, 'x-forwarded-for': event.ip } },
        (res) => {
          res.resume();
          res.on('end', () => {
            tally.sent += 1;
            const dropped = res.headers['x-svc-dropped'];
            if (res.statusCode !== 202) tally.failed += 1;
            else if (typeof dropped === 'string') tally.dropped[dropped] = (tally.dropped[dropped] ?? 0) + 1;
            resolve();
          });
        },
      );
      req.on('error', () => {
        tally.failed += 1;
        resolve();
      });
      req.end(event.body);
    });
  const worker = async () => {
    while (Date.now() < until && !died) await one();
  };
  const samples = [];
  const sampler = (async () => {
    let lastSent = 0;
    for (let minute = 1; minute <= MINUTES && !died; minute += 1) {
      const minuteEnds = until - (MINUTES - minute) * 60_000;
      const readings = [];
      while (!died && Date.now() < minuteEnds) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, Math.max(0, minuteEnds - Date.now()))));
        if (!died) readings.push(rssNow());
      }
      if (died) break;
      const m = await memory();
      readings.push(m.rss);
      const mean = readings.reduce((a, b) => a + b, 0) / readings.length;
      const max = Math.max(...readings);
      samples.push({ minute, mean, max });
      row(minute, Math.round((tally.sent - lastSent) / 60), tally.sent, tally.failed, m, mean, max);
      lastSent = tally.sent;
    }
  })();
  await Promise.all([...Array.from({ length: CONCURRENCY }, worker), sampler]);
  agent.destroy();

  if (died) {
    console.log('the service died during the soak');
    process.exitCode = 1;
  } else {
    child.send('stop');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });

  console.log(`x-svc-dropped (classified events are stored): ${JSON.stringify(tally.dropped)}`);
  const peak = Math.max(start.rss, ...samples.map((s) => s.max));
  console.log(`peak RSS ${(peak / MB).toFixed(0)} MB: ${peak < LIMIT_MB * MB ? 'under' : 'OVER'} ${LIMIT_MB} MB`);
  if (peak >= LIMIT_MB * MB) process.exitCode = 1;
  const steady = samples.filter((s) => s.minute >= STEADY_FROM_MINUTE);
  const settled = samples.filter((s) => s.minute >= SETTLED_FROM_MINUTE && s.minute < STEADY_FROM_MINUTE);
  if (steady.length >= 2) {
    const mean = (list) => list.reduce((total, s) => total + s.mean, 0) / list.length;
    const [before, after] = [mean(settled), mean(steady)];
    const flat = after <= before * 1.1;
    console.log(
      `mean RSS, minutes ${SETTLED_FROM_MINUTE}–${STEADY_FROM_MINUTE - 1}: ${(before / MB).toFixed(0)} MB; from minute ${STEADY_FROM_MINUTE}: ${(after / MB).toFixed(0)} MB (${((after / before - 1) * 100).toFixed(1)} %): ${flat ? 'flat' : 'GROWING'} (at most 10 % more)`,
    );
    if (!flat) process.exitCode = 1;
  } else {
    console.log(`flatness is judged from minute ${STEADY_FROM_MINUTE}, once the first visits have expired: run SOAK_MINUTES=35 for it`);
  }
}
