import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExportJob, INTERRUPTED_EXPORT } from '../../src/export/exportJobs.js';
import { readLease } from '../../src/stores/meta/leases.js';
import { createWebSession } from '../../src/stores/meta/webSessions.js';
import { type MultiNode, multiNodeSkip, type ServiceNode, startMultiNode, until } from '../support/multiNode.js';
import type { Account } from '../support/testApp.js';
import { csvRows, readZip } from '../support/zip.js';
import { holderPid } from './leaseHolders.js';
import { acknowledged, send, visitorAddress } from './send.js';

const PERIOD_MS = 4_000;

/**
 * Prepared exports across nodes (docs/scaling.md, Roles): the web node that is asked records the
 * export in FILES_DIR, a worker takes it up and writes it under the lease `export:<id>`, and the
 * web node lists it and serves the file. A holder that dies has its export marked failed with a
 * sentence within a lease period.
 */
describe.skipIf(multiNodeSkip !== null)('prepared exports on a web node and two workers', () => {
  let set: MultiNode;
  let ingest: ServiceNode;
  let web: ServiceNode;
  let workers: ServiceNode[];
  let account: Account;
  let headers: Record<string, string>;

  beforeAll(async () => {
    set = await startMultiNode();
    const env = { LEASE_PERIOD_SECONDS: String(PERIOD_MS / 1000) };
    ingest = await set.startNode('ingest', 'ingest', env);
    web = await set.startNode('query-web', 'query,web', env);
    workers = [await set.startNode('worker-a', 'worker', env), await set.startNode('worker-b', 'worker', env)];
    account = await set.createAccount();
    const { db } = await set.meta();
    const { token, session } = await createWebSession(db, account.userId, Date.now());
    headers = { cookie: `svc_session=${token}`, 'x-csrf-token': session.csrfToken };
  }, 120_000);
  afterAll(() => set?.close(), 60_000);

  const prepare = async (): Promise<{ id: string; status: string }> => {
    const res = await fetch(`${web.url}/app/api/sites/${account.domain}/exports`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{}',
    });
    const job = await res.json();
    expect(res.status, JSON.stringify(job)).toBe(202);
    return job;
  };
  const listed = async (id: string) => {
    const res = await fetch(`${web.url}/app/api/sites/${account.domain}/exports`, { headers });
    const { exports } = (await res.json()) as { exports: { id: string; status: string; error: string | null; download_url: string | null }[] };
    return exports.find((job) => job.id === id);
  };
  /** The export's record in the shared folder, as every node reads it. */
  const record = (id: string): ExportJob | undefined => {
    try {
      return JSON.parse(readFileSync(join(set.filesDir, 'exports', `${id}.json`), 'utf8'));
    } catch {
      return undefined;
    }
  };

  it('an export asked of the web node is written by a worker and downloads from the web node', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => send(ingest, { n: 'pageview', u: `https://${account.domain}/page-${i}`, d: account.domain }, visitorAddress(i, 9))),
    );
    expect(answers.every(acknowledged)).toBe(true);
    await until(
      () => set.rows<{ n: string }>('SELECT toString(count()) AS n FROM events WHERE site_id = {site:UInt64}', { site: account.siteId }),
      (rows) => rows[0]?.n === '6',
    );

    const job = await prepare();
    expect(job.status).toBe('preparing');
    const ready = await until(
      () => listed(job.id),
      (item) => item?.status !== 'preparing',
      30_000,
    );
    expect(ready).toMatchObject({ status: 'ready', error: null });
    // Its writer named itself in the record: a worker's process, not the web node's.
    const writer = holderPid(record(job.id)?.holder ?? undefined);
    expect(
      workers.map((worker) => worker.pid),
      `written by ${record(job.id)?.holder}`,
    ).toContain(writer);
    expect(writer).not.toBe(web.pid);

    const download = await fetch(`${web.url}${ready?.download_url}`, { headers });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/zip');
    const files = await readZip(Buffer.from(await download.arrayBuffer()));
    const today = new Date().toISOString().slice(0, 10).replaceAll('-', '');
    const events = csvRows(files.get(`events_${today}_${today}.csv`) ?? '');
    expect(events.map((row) => row.pathname).sort()).toEqual(Array.from({ length: 6 }, (_, i) => `/page-${i}`));
  }, 60_000);

  it('SIGKILL of the worker writing an export: it is listed as failed with a sentence within one lease period', async () => {
    // Recorded while no worker runs, so the one that takes it up is caught writing on a paused event store.
    for (const worker of workers) worker.pause();
    let job: { id: string };
    try {
      job = await prepare();
    } finally {
      set.pauseClickhouse();
      for (const worker of workers) worker.resume();
    }
    let killedAt = 0;
    let holder: ServiceNode | undefined;
    try {
      const taken = await until(
        async () => record(job.id),
        (item) => typeof item?.holder === 'string',
        10_000,
      );
      holder = workers.find((worker) => worker.pid === holderPid(taken?.holder ?? undefined));
      expect(holder, `the export's holder ${taken?.holder} is none of the workers`).toBeDefined();
      const { db } = await set.meta();
      expect(holderPid((await readLease(db, `export:${job.id}`))?.holder)).toBe(holder?.pid);
      expect((await listed(job.id))?.status).toBe('preparing');
      killedAt = Date.now();
      await holder?.kill();
    } finally {
      set.resumeClickhouse();
    }

    // Its lease runs out within a period of the kill, and the nodes look again when it does.
    const failed = await until(
      () => listed(job.id),
      (item) => item?.status !== 'preparing',
      3 * PERIOD_MS,
    );
    const after = Date.now() - killedAt;
    expect(failed).toMatchObject({ status: 'failed', error: INTERRUPTED_EXPORT, download_url: null });
    expect(after, `listed as failed ${after} ms after the kill`).toBeLessThanOrEqual(PERIOD_MS + 1_500);
    // No other worker took it up to write it again: it is to be prepared again by the user.
    expect(holderPid(record(job.id)?.holder ?? undefined)).toBe(holder?.pid);
    expect(existsSync(join(set.filesDir, 'exports', `${job.id}.zip`))).toBe(false);
  }, 60_000);
});
