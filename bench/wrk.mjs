// npm run bench:wrk — ingestion under wrk (1 thread, 50 connections, 30 s by default) against a
// bare Node server answering 202 in the same run: events/s, p99 and the server's CPU µs per
// event, for the embedded service, the service with STATE_URL (Redis shared state; skipped when
// no Redis answers at BENCH_STATE_URL, default redis://127.0.0.1:6379) and two service processes
// side by side, each with half the connections. Every service journals each event before its 202
// (src/ingest/journal.ts), so these are the figures of "accepted means stored".
//   BENCH_SECONDS (30), BENCH_CONNECTIONS (50), BENCH_STATE_URL
import { execFile, fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { nextEvent, threadCpu } from './traffic.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const STATE_URL = process.env.BENCH_STATE_URL ?? 'redis://127.0.0.1:6379';
const REQUESTS = 20_000;
const run = promisify(execFile);

/** A wrk script cycling through requests drawn from the ingestion bench's mix. */
function wrkScript() {
  const quote = (text) => JSON.stringify(text);
  const items = Array.from({ length: REQUESTS }, () => {
    const e = nextEvent();
    return `{${quote(e.body)},${quote(e.ua)},${quote(e.ip)}}`;
  });
  const path = join(mkdtempSync(join(tmpdir(), 'svc-wrk-')), 'events.lua');
  writeFileSync(
    path,
    `local items = {${items.join(',\n')}}
local i = 0
request = function()
  i = i % #items + 1
  local item = items[i]
  return wrk.format("POST", "/api/event", { ["Content-Type"] = "text/plain", ["User-Agent"] = item[2], ["X-Forwarded-For"] = item[3] }, item[1])
end
`,
  );
  return path;
}

async function wrk(url, script, connections) {
  const { stdout } = await run('wrk', ['-t1', `-c${connections}`, `-d${SECONDS}s`, '--latency', '-s', script, url], { maxBuffer: 1 << 20 });
  const perSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
  const requests = Number(/(\d+) requests in/.exec(stdout)?.[1]);
  const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(stdout);
  const scale = { us: 0.001, ms: 1, s: 1000 };
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
  return { perSecond, requests, p99: p99 ? Number(p99[1]) * scale[p99[2]] : Number.NaN, non2xx };
}

async function start(script, args = [], env = {}) {
  const child = fork(new URL(script, import.meta.url), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, ...env } });
  const [ready] = await once(child, 'message');
  return { child, pid: child.pid, ...ready };
}

async function stop(server) {
  server.child.send('stop');
  await once(server.child, 'exit');
}

/** wrk against each server at once; CPU per event is the servers' main and other threads over all requests. */
async function measure(servers, script) {
  const before = servers.map((s) => threadCpu(s.pid));
  const results = await Promise.all(servers.map((s) => wrk(s.url, script, Math.round(CONNECTIONS / servers.length))));
  const after = servers.map((s) => threadCpu(s.pid));
  const requests = results.reduce((sum, r) => sum + r.requests, 0);
  const cpu = servers.reduce((sum, _, i) => sum + (after[i].main - before[i].main) + (after[i].other - before[i].other), 0);
  return {
    perSecond: results.reduce((sum, r) => sum + r.perSecond, 0),
    p99: Math.max(...results.map((r) => r.p99)),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    cpuMicros: (cpu / requests) * 1e6,
  };
}

const reachable = (url) =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = createConnection({ host: hostname, port: Number(port || 6379) }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

const show = (name, r, baseline) =>
  console.log(
    `${name.padEnd(34)} ${r.perSecond.toFixed(0).padStart(7)} events/s   p99 ${r.p99.toFixed(2).padStart(7)} ms   CPU ${r.cpuMicros.toFixed(0).padStart(4)} µs/event   ratio ${(r.perSecond / baseline.perSecond).toFixed(2)}${r.non2xx ? `   non-2xx ${r.non2xx}` : ''}`,
  );

console.log(`bench:wrk — wrk -t1 -c${CONNECTIONS} -d${SECONDS}s, ${REQUESTS.toLocaleString('en')} requests from the ingestion bench's mix`);
const script = wrkScript();
const dirs = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-wrk-'));
  dirs.push(dir);
  return dir;
};

const bare = await start('./bareServer.mjs');
const baseline = await measure([bare], script);
show('bare node (202)', baseline, baseline);

const one = await start('./serviceServer.mjs', [dataDir()]);
show('svc, embedded', await measure([one], script), baseline);
await stop(one);

if (await reachable(STATE_URL)) {
  const shared = await start('./serviceServer.mjs', [dataDir()], { STATE_URL });
  show('svc, STATE_URL (Redis)', await measure([shared], script), baseline);
  await stop(shared);
} else console.log(`svc, STATE_URL (Redis)             skipped: nothing answers at ${STATE_URL}`);

const pair = [await start('./serviceServer.mjs', [dataDir()]), await start('./serviceServer.mjs', [dataDir()])];
show('two svc processes, half each', await measure(pair, script), baseline);
await Promise.all(pair.map(stop));
await stop(bare);
for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
