import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LeaseRow, readLease } from '../../src/stores/meta/leases.js';
import { type MultiNode, multiNodeSkip, type ServiceNode, startMultiNode, until } from '../support/multiNode.js';
import type { Account } from '../support/testApp.js';
import { zipOf } from '../support/zip.js';
import { holderPid } from './leaseHolders.js';

/** How often a worker looks for imports whose holder died (src/imports/importRunner.ts SWEEP_MS). */
const SWEEP_MS = 5_000;
const PERIOD_MS = 4_000;

// A Plausible-format export (the columns of its CSV export), as test/imports/imports.test.ts uploads.
const VISITORS = 'date,visitors,pageviews,bounces,visits,visit_duration\n2024-01-01,10,25,4,12,600\n2024-01-02,7,9,5,8,120\n';

/**
 * A lease holder that dies is replaced within one lease period, and its import restarts from its
 * saved upload (docs/scaling.md). An import uploaded to the query node waits in the metadata store; the
 * ClickHouse stand-in is paused first, so the worker that claims it (`import:<id>`) is caught
 * writing its rows with the lease held. It is SIGKILLed; the other worker finds the lease expired
 * and runs the import again from the upload in FILES_DIR, its predecessor's rows deleted first.
 */
describe.skipIf(multiNodeSkip !== null)('an import whose worker is killed', () => {
  let set: MultiNode;
  let query: ServiceNode;
  let workers: ServiceNode[];
  let account: Account;

  beforeAll(async () => {
    set = await startMultiNode();
    const env = { LEASE_PERIOD_SECONDS: String(PERIOD_MS / 1000) };
    query = await set.startNode('query-web', 'query,web', env);
    workers = [await set.startNode('worker-a', 'worker', env), await set.startNode('worker-b', 'worker', env)];
    account = await set.createAccount();
  }, 120_000);
  afterAll(() => set?.close(), 60_000);

  it('restarts from its saved upload on the other worker within one lease period, nothing doubled', async () => {
    const { db } = await set.meta();
    set.pauseClickhouse();
    let held: LeaseRow | undefined;
    let holder: ServiceNode | undefined;
    let killedAt = 0;
    let id = 0;
    try {
      // The upload route touches only the metadata store and FILES_DIR.
      const res = await fetch(`${query.url}/api/v1/sites/${account.domain}/imports?file_name=plausible.zip`, {
        method: 'POST',
        headers: { authorization: `Bearer ${account.key}`, 'content-type': 'application/zip' },
        body: new Uint8Array(await zipOf({ 'imported_visitors_20240101_20240102.csv': VISITORS })),
      });
      const answer = await res.json();
      expect(res.status, JSON.stringify(answer)).toBe(202);
      id = answer.id;
      held = await until(
        () => readLease(db, `import:${id}`),
        (lease) => lease !== undefined,
        SWEEP_MS + 10_000,
      );
      expect(held, 'no worker took the import up').toBeDefined();
      holder = workers.find((worker) => worker.pid === holderPid(held?.holder));
      expect(holder, `the lease holder ${held?.holder} is none of the workers`).toBeDefined();
      // It marked the import running before writing a row; the writes wait on the paused event store.
      const running = await until(
        () => importOf(id),
        (item) => item.status === 'running',
      );
      expect(running.status).toBe('running');
      killedAt = Date.now();
      await holder?.kill();
    } finally {
      set.resumeClickhouse();
    }
    const other = workers.find((worker) => worker !== holder) as ServiceNode;

    const taken = await until(
      () => readLease(db, `import:${id}`),
      (lease) => lease !== undefined && holderPid(lease.holder) === other.pid,
      PERIOD_MS + SWEEP_MS + 10_000,
    );
    expect(holderPid(taken?.holder), `${other.name} did not take the import over:\n${other.output.slice(-3000)}`).toBe(other.pid);
    // The lease ran out within one period of the kill, and the other worker looked at its expiry.
    expect((taken?.claimedAt ?? 0) - killedAt).toBeLessThanOrEqual(PERIOD_MS + 1_500);

    const done = await until(
      () => importOf(id),
      (item) => item.status !== 'running' && item.status !== 'pending',
      30_000,
    );
    expect(done).toMatchObject({ status: 'completed', from: '2024-01-01', to: '2024-01-02', rows: 2, error: null });
    const visitors = await set.rows<{ date: string; visitors: string }>(
      'SELECT toString(date) AS date, toString(sum(visitors)) AS visitors FROM rollup_visitors WHERE site_id = {site:UInt64} GROUP BY date ORDER BY date',
      { site: account.siteId },
    );
    expect(visitors.map((row) => [row.date, Number(row.visitors)])).toEqual([
      ['2024-01-01', 10],
      ['2024-01-02', 7],
    ]);
  }, 120_000);

  const importOf = async (id: number) => {
    const res = await fetch(`${query.url}/api/v1/sites/${account.domain}/imports/${id}`, { headers: { authorization: `Bearer ${account.key}` } });
    return res.json();
  };
});
