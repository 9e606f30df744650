import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLLUP_TABLES, rollupTableName } from '../../src/stores/clickhouse/dailyRollups.js';
import { readLease } from '../../src/stores/meta/leases.js';
import { CHROME_MAC } from '../support/collect.js';
import { type MultiNode, multiNodeSkip, type ServiceNode, startMultiNode, until } from '../support/multiNode.js';
import type { Account } from '../support/testApp.js';
import { visitorAddress } from './send.js';

/** A worker's first roll-up round comes this long after it starts (src/backgroundJobs.ts FIRST_ROUND_MS). */
const FIRST_ROUND_MS = 30_000;
const DAY = 86_400_000;

/**
 * Issue 22 §4 and §6: two workers roll each closed day up once — the roll-ups' sums equal the raw
 * rows' — because the round runs under the `rollups` lease (src/stores/meta/leases.ts) and reads
 * the coverage other nodes recorded.
 */
describe.skipIf(multiNodeSkip !== null)('two workers', () => {
  let set: MultiNode;
  let ingest: ServiceNode;
  let workers: ServiceNode[];
  let workersStarted: number;
  let account: Account;

  beforeAll(async () => {
    set = await startMultiNode();
    workersStarted = performance.now();
    // The import route is an ingest node's; on a node without `worker` an import waits a whole
    // lease period before a worker takes it (src/imports/importRunner.ts uploadSettled), past the
    // first round, so the node taking it is a worker too.
    ingest = await set.startNode('ingest-worker', 'ingest,worker');
    workers = [ingest, await set.startNode('worker-2', 'worker')];
    account = await set.createAccount();
  }, 120_000);
  afterAll(() => set?.close(), 60_000);

  it('roll each closed day up once: the roll-ups sum to the raw rows', async () => {
    // Closed days come only from history: an NDJSON import of three past days, before the first round.
    const lines: string[] = [];
    for (const daysAgo of [3, 4, 5]) {
      const day = new Date(Date.now() - daysAgo * DAY).toISOString().slice(0, 10);
      for (let visitor = 0; visitor < 40; visitor++) {
        for (let page = 0; page < 1 + (visitor % 3); page++) {
          lines.push(
            JSON.stringify({
              timestamp: `${day}T10:${String(visitor).padStart(2, '0')}:${String(page * 10).padStart(2, '0')}Z`,
              ip: visitorAddress(visitor, 7),
              user_agent: CHROME_MAC,
              n: 'pageview',
              u: `https://${account.domain}/history-${page}`,
            }),
          );
        }
      }
    }
    const res = await fetch(`${ingest.url}/api/v1/sites/${account.domain}/events/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.key}`, 'content-type': 'application/x-ndjson' },
      body: lines.join('\n'),
    });
    expect(res.status, await res.clone().text()).toBe(200);

    const yesterday = new Date(Date.now() - DAY).toISOString().slice(0, 10);
    const coverage = await until(
      () => set.rows<{ through: string }>('SELECT through FROM rollup_coverage FINAL WHERE site_id = {site:UInt64}', { site: account.siteId }),
      (rows) => rows[0] !== undefined && rows[0].through >= yesterday,
      FIRST_ROUND_MS + 30_000 - (performance.now() - workersStarted),
    );
    expect(coverage[0]?.through, 'no worker rolled the closed days up within its first round').toBe(yesterday);
    // Both workers' first rounds must be over: the second finds the lease taken or the days covered.
    const { db } = await set.meta();
    await until(
      async () => ({ lease: await readLease(db, 'rollups'), since: performance.now() - workersStarted }),
      ({ lease, since }) => lease === undefined && since > FIRST_ROUND_MS + 3_000,
      30_000,
    );

    const differing: string[] = [];
    const site = { site: account.siteId };
    const rawEvents = await set.rows<{ day: string; n: string }>(
      "SELECT toString(toDate(timestamp)) AS day, toString(count()) AS n FROM events WHERE site_id = {site:UInt64} AND name != 'engagement' GROUP BY day",
      site,
    );
    const rawVisits = await set.rows<{ day: string; n: string }>(
      'SELECT toString(toDate(timestamp)) AS day, toString(sum(sign)) AS n FROM sessions WHERE site_id = {site:UInt64} GROUP BY day HAVING sum(sign) != 0',
      site,
    );
    expect(rawEvents.reduce((sum, row) => sum + Number(row.n), 0)).toBe(lines.length);
    const asMap = (rows: { day: string; n: string }[]) => Object.fromEntries(rows.map((row) => [row.day, Number(row.n)]));
    for (const table of ROLLUP_TABLES) {
      const [sum, raw, day] = table.family === 'events' ? ['events', rawEvents, 'day'] : ['visits', rawVisits, 'last_day'];
      const rolled = await set.rows<{ day: string; n: string }>(
        `SELECT toString(${day}) AS day, toString(sum(${sum})) AS n FROM ${rollupTableName(table)} WHERE site_id = {site:UInt64} AND days = 1 GROUP BY day`,
        site,
      );
      const got = asMap(rolled);
      const want = asMap(raw);
      for (const key of new Set([...Object.keys(got), ...Object.keys(want)])) {
        if (got[key] !== want[key]) differing.push(`${rollupTableName(table)} ${key}: ${sum} ${got[key] ?? 0}, raw ${want[key] ?? 0}`);
      }
    }
    const rounds = workers.map(
      (worker) => `${worker.name}: ${worker.output.split('\n').filter((line) => line.includes('rolled up closed days')).length} rounds rolled days`,
    );
    expect(differing.slice(0, 10), `roll-ups differ from the raw rows (${rounds.join(', ')})`).toEqual([]);
  }, 120_000);

  // A round runs 30 s after a worker starts and then every 5 minutes (src/backgroundJobs.ts), and
  // nothing starts one sooner (no trigger, no variable): a worker that finds the `rollups` lease
  // held passes the round over and tries again 5 minutes later, so when the holder is killed the
  // other takes over within 5 minutes, not within one lease period (60 s), and a test would have
  // to sleep through it.
  it.todo('SIGKILL of the roll-up lease holder: the other worker takes the roll-ups over within one lease period');
});
