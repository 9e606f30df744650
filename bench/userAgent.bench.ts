/**
 * Hot-path costs of classifying an event (docs/classification.md), each against a baseline measured in the same run:
 * run with `npx vitest bench --run bench/userAgent.bench.ts`.
 */
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import UAParser from 'ua-parser-js';
import { bench, describe } from 'vitest';
import { classify, isDatacenterAddress, loadClassificationLists } from '../src/ingest/classification/index.js';
import { parseUserAgent } from '../src/ingest/userAgent.js';

const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/28.0 Chrome/130.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:142.0) Gecko/20100101 Firefox/142.0',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'curl/8.5.0',
];
const ADDRESSES = Array.from({ length: 4_096 }, (_, i) =>
  i % 4 === 0 ? `2a01:4f8:${(i % 65_536).toString(16)}::${i.toString(16)}` : `${((i * 7) % 223) + 1}.${i % 256}.${(i * 13) % 256}.${(i * 31) % 256}`,
);

// A fixed directory, so repeated runs reuse one cache file instead of leaving new ones behind.
const cacheDir = join(tmpdir(), 'svc-classification-bench');
const lists = await loadClassificationLists({ cacheDir });
let n = 0;

describe('user-agent parsing', () => {
  bench('ua-parser-js 1.x uncached (baseline)', () => {
    new UAParser(AGENTS[n++ % AGENTS.length]).getResult();
  });
  bench('parseUserAgent (LRU hit)', () => {
    parseUserAgent(AGENTS[n++ % AGENTS.length] ?? '');
  });
});

describe('datacenter lookup', () => {
  bench('net.isIP validation only (baseline)', () => {
    isIP(ADDRESSES[n++ % ADDRESSES.length] ?? '');
  });
  bench('isDatacenterAddress', () => {
    isDatacenterAddress(lists, ADDRESSES[n++ % ADDRESSES.length] ?? '');
  });
});

describe('whole classification', () => {
  bench('parseUserAgent (baseline)', () => {
    parseUserAgent(AGENTS[n++ % AGENTS.length] ?? '');
  });
  bench('parseUserAgent + classify', () => {
    const userAgent = AGENTS[n % AGENTS.length] ?? '';
    classify(lists, { userAgent, ua: parseUserAgent(userAgent), ip: ADDRESSES[n++ % ADDRESSES.length] ?? '', referrerHost: 'www.example.com' });
  });
});

describe('loading the lists', () => {
  bench(
    'warm: ranges from the cache file (baseline)',
    async () => {
      await loadClassificationLists({ cacheDir });
    },
    { iterations: 20 },
  );
  bench(
    'cold: scanning @ip-location-db/asn',
    async () => {
      await loadClassificationLists();
    },
    { iterations: 5, time: 0 },
  );
});
