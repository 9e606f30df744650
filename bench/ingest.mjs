// npm run bench:ingest — sustained events/s and latency of POST /api/event against a bare Node
// server answering 202 in the same run, then proof that every accepted event was stored.
// Rounds alternate bare and svc so that drift in the machine's speed falls on both; each run
// also reports where the CPU went per event (load generator, server main thread, other threads:
// for svc, the embedded engine's insert and merge threads).
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nextEvent, threadCpu } from './traffic.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const CLASSIFIED = new Set(['bot', 'datacenter_ip', 'referrer_spam', 'outdated_browser', 'automation']);

async function load(url, pid) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const target = new URL('/api/event', url);
  const latencies = [];
  const tally = { sent: 0, accepted: 0, storedExpected: 0, dropped: {} };
  const until = performance.now() + SECONDS * 1000;
  const one = () =>
    new Promise((resolve, reject) => {
      const event = nextEvent();
      const started = performance.now();
      const req = request(
        target,
        { method: 'POST', agent, headers: { 'content-type': 'text/plain', 'user-agent': event.ua, 'x-forwarded-for': event.ip } },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - started);
            tally.sent += 1;
            const dropped = res.headers['x-svc-dropped'];
            if (res.statusCode === 202) tally.accepted += 1;
            if (dropped) tally.dropped[dropped] = (tally.dropped[dropped] ?? 0) + 1;
            if (res.statusCode === 202 && (!dropped || CLASSIFIED.has(dropped))) tally.storedExpected += 1;
            resolve();
          });
        },
      );
      req.on('error', reject);
      req.end(event.body);
    });
  const worker = async () => {
    while (performance.now() < until) await one();
  };
  const started = performance.now();
  const serverBefore = threadCpu(pid);
  const clientBefore = process.cpuUsage();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - started) / 1000;
  const client = process.cpuUsage(clientBefore);
  const serverAfter = threadCpu(pid);
  const perEvent = (seconds) => (seconds / tally.sent) * 1e6;
  const cpu =
    serverBefore && serverAfter
      ? {
          generator: perEvent((client.user + client.system) / 1e6),
          main: perEvent(serverAfter.main - serverBefore.main),
          other: perEvent(serverAfter.other - serverBefore.other),
        }
      : null;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return { ...tally, perSecond: tally.sent / elapsed, p50: pct(50), p99: pct(99), cpu };
}

async function start(script, args = []) {
  const child = fork(new URL(script, import.meta.url), args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: process.env.BENCH_PROFILE && script.includes('service') ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : [],
  });
  const [ready] = await once(child, 'message');
  return { child, pid: child.pid, ...ready };
}

async function stop(server) {
  server.child.send('stop');
  await once(server.child, 'exit');
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const cpuText = (c) => (c ? `   CPU µs/event: generator ${c.generator.toFixed(0)}, server main ${c.main.toFixed(0)}, other threads ${c.other.toFixed(0)}` : '');
const show = (name, r) =>
  console.log(
    `${name.padEnd(22)} ${r.perSecond.toFixed(0).padStart(7)} events/s   p50 ${r.p50.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms   (${r.sent} requests)${cpuText(r.cpu)}`,
  );

console.log(
  `bench:ingest — ${ROUNDS} rounds of ${SECONDS} s per server, ${CONCURRENCY} keep-alive connections, 3,000 agents, 20,000 addresses, 800 pages, 308 referrers`,
);
const bare = await start('./bareServer.mjs');
await load(bare.url, bare.pid); // warm-up of the client side
const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-ingest-'));
const service = await start('./serviceServer.mjs', [dataDir]);
const rounds = [];
for (let round = 1; round <= ROUNDS; round += 1) {
  const baseline = await load(bare.url, bare.pid);
  const ours = await load(service.url, service.pid);
  // Let the engine finish the merges this run started before the next baseline is measured.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  rounds.push({ baseline, ours, ratio: ours.perSecond / baseline.perSecond });
  console.log(`round ${round}`);
  show('  bare node (202)', baseline);
  show('  svc POST /api/event', ours);
  console.log(`  ratio (svc / bare)   ${(ours.perSecond / baseline.perSecond).toFixed(2)}`);
}
await stop(bare);
await stop(service); // graceful stop drains the write buffer

const dropped = {};
for (const { ours } of rounds) for (const [reason, n] of Object.entries(ours.dropped)) dropped[reason] = (dropped[reason] ?? 0) + n;
const storedExpected = rounds.reduce((sum, { ours }) => sum + ours.storedExpected, 0);
console.log(`median ratio (svc / bare) ${median(rounds.map((r) => r.ratio)).toFixed(2)}  (rounds: ${rounds.map((r) => r.ratio.toFixed(2)).join(', ')})`);
console.log(`drops in header        ${JSON.stringify(dropped)}`);

// Every event answered 202 without a drop (or with a classification, which is stored) must be in the store.
const { createClient } = await import('@clickhouse/client');
const { createRequire } = await import('node:module');
const require = createRequire(import.meta.url);
const { createChdbConnection } = require('chdb/connection');
const client = createClient({ connection: createChdbConnection({ path: join(dataDir, 'clickhouse') }) });
const result = await client.query({ query: "SELECT count() AS c FROM events WHERE name != 'engagement'", format: 'JSONEachRow' });
const [{ c }] = await result.json();
await client.close();
rmSync(dataDir, { recursive: true, force: true });
const storedCount = Number(c);
console.log(`stored ${storedCount} of ${storedExpected} accepted events: ${storedCount === storedExpected ? 'all stored' : 'MISMATCH'}`);
if (storedCount !== storedExpected) process.exitCode = 1;
