// The traffic the ingestion benchmarks send (bench/ingest.mjs, bench/wrk.mjs), and where a
// server's CPU goes while it answers.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

// A realistic mix: thousands of distinct agents, addresses, pages and referrers, skewed.
const rand = (n) => Math.floor(Math.random() ** 2 * n);
export const browsers = [
  (v) => `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.${v * 7}.${v % 90} Safari/537.36`,
  (v) => `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_${v % 8}) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${15 + (v % 4)}.${v % 6} Safari/605.1.15`,
  (v) =>
    `Mozilla/5.0 (iPhone; CPU iPhone OS 17_${v % 7} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.${v % 7} Mobile/15E${v} Safari/604.1`,
  (v) => `Mozilla/5.0 (X11; Linux x86_64; rv:${100 + (v % 40)}.0) Gecko/20100101 Firefox/${100 + (v % 40)}.0`,
  (v) => `Mozilla/5.0 (Linux; Android ${10 + (v % 5)}; SM-G9${v % 100}B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 Mobile Safari/537.36`,
];
const agents = Array.from({ length: 3000 }, (_, i) => browsers[i % browsers.length](90 + (i % 45)) + (i > 2500 ? ` build/${i}` : ''));
const addresses = Array.from({ length: 20000 }, (_, i) => `${81 + (i % 60)}.${(i >> 8) % 256}.${i % 256}.${((i * 7) % 250) + 1}`);
export const pages = Array.from({ length: 800 }, (_, i) => `/blog/post-${i}${i % 5 === 0 ? '?utm_source=newsletter&utm_medium=email' : ''}`);
export const referrers = [
  null,
  null,
  null,
  'https://www.google.com/',
  'https://news.ycombinator.com/',
  'https://t.co/x',
  'https://www.reddit.com/r/x',
  'https://duckduckgo.com/',
  ...Array.from({ length: 300 }, (_, i) => `https://blog${i}.example.net/post`),
];

export function nextEvent() {
  const visitor = rand(addresses.length);
  const roll = Math.random();
  const body = {
    d: 'bench.example.com',
    u: `https://bench.example.com${pages[rand(pages.length)]}`,
    r: referrers[rand(referrers.length)],
    w: 360 + rand(1600),
  };
  if (roll < 0.85) Object.assign(body, { n: 'pageview' });
  else Object.assign(body, { n: 'Signup', p: { plan: ['free', 'pro', 'team'][rand(3)] } });
  return { body: JSON.stringify(body), ua: agents[visitor % agents.length], ip: addresses[visitor] };
}

/** CPU seconds a process has used, split into its main thread and all its other threads (Linux). */
export function threadCpu(pid) {
  if (!existsSync(`/proc/${pid}/task`)) return null;
  const ticks = { main: 0, other: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks[tid === String(pid) ? 'main' : 'other'] += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the thread ended between listing and reading
    }
  }
  return { main: ticks.main / 100, other: ticks.other / 100 };
}
