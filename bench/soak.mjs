// npm run bench:soak — memory under a long flood of new visitors (issue 22, 3b). The ingestion
// bench's load (keep-alive connections sending as fast as the service answers) for SOAK_MINUTES
// (35 by default), from the perf mix of 50,000 addresses × 102 user agents, so nearly every event
// starts a visit. Prints the service's RSS and heap every minute; passes when RSS stays under
// 1 GB throughout and flat (within 10 %) from minute 31 on, once the first visits have expired.
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
  // The process's memory is bounded by these two settings, not by traffic (issue 22, 3b).
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
      process.send?.({ rss, heapUsed, heapTotal, external, arrayBuffers });
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
  const memory = async () => {
    child.send('memory');
    const [m] = await once(child, 'message');
    // The embedded engine's memory is the process's too: RSS as the kernel counts it.
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return { ...m, rss: rssKb ? rssKb * 1024 : m.rss };
  };

  console.log(
    `bench:soak — ${MINUTES} min, ${CONCURRENCY} keep-alive connections, 50,000 addresses × 102 user agents; LIVE_VISITS_MAX ${ready.liveVisitsMax}` +
      (process.env.SOAK_HEAP_MB ? `, --max-old-space-size=${process.env.SOAK_HEAP_MB}` : '') +
      (process.env.CLICKHOUSE_MEMORY_LIMIT_MB ? `, CLICKHOUSE_MEMORY_LIMIT_MB ${process.env.CLICKHOUSE_MEMORY_LIMIT_MB}` : ''),
  );
  const start = await memory();
  console.log(`minute  events/s      sent   non-202   RSS MB   heap used MB   heap total MB   array buffers MB`);
  const row = (label, rate, sent, failed, m) =>
    console.log(
      `${String(label).padStart(6)} ${String(rate).padStart(9)} ${String(sent).padStart(9)} ${String(failed).padStart(9)} ${(m.rss / MB).toFixed(0).padStart(8)} ${(m.heapUsed / MB).toFixed(0).padStart(14)} ${(m.heapTotal / MB).toFixed(0).padStart(15)} ${(m.arrayBuffers / MB).toFixed(0).padStart(18)}`,
    );
  row(0, '-', 0, 0, start);

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
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, until - (MINUTES - minute) * 60_000 - Date.now())));
      if (died) break;
      const m = await memory();
      samples.push({ minute, ...m });
      row(minute, Math.round((tally.sent - lastSent) / 60), tally.sent, tally.failed, m);
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
  const peak = Math.max(start.rss, ...samples.map((s) => s.rss));
  console.log(`peak RSS ${(peak / MB).toFixed(0)} MB: ${peak < LIMIT_MB * MB ? 'under' : 'OVER'} ${LIMIT_MB} MB`);
  if (peak >= LIMIT_MB * MB) process.exitCode = 1;
  const steady = samples.filter((s) => s.minute >= STEADY_FROM_MINUTE);
  if (steady.length >= 2) {
    const low = Math.min(...steady.map((s) => s.rss));
    const high = Math.max(...steady.map((s) => s.rss));
    const flat = high <= low * 1.1;
    console.log(`RSS from minute ${STEADY_FROM_MINUTE}: ${(low / MB).toFixed(0)}–${(high / MB).toFixed(0)} MB: ${flat ? 'flat' : 'GROWING'} (within 10 %)`);
    if (!flat) process.exitCode = 1;
  } else {
    console.log(`flatness is judged from minute ${STEADY_FROM_MINUTE}, once the first visits have expired: run SOAK_MINUTES=35 for it`);
  }
}
