import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackgroundJobs } from '../../src/backgroundJobs.js';
import { createExportJobs, INTERRUPTED_EXPORT } from '../../src/export/exportJobs.js';
import { createImportRunner, uploadPath } from '../../src/imports/importRunner.js';
import { openRollups, type Rollups } from '../../src/rollups/rollups.js';
import { EVENT_MIGRATIONS, migrateEvents } from '../../src/stores/clickhouse/migrations.js';
import { type MetaStore, openMetaStore } from '../../src/stores/meta/database.js';
import { createImport, getImport, updateImport } from '../../src/stores/meta/imports.js';
import { claimLease, createLeases, LEASE_PERIOD_MS, NODE_ID, readLease, releaseLease, renewLease } from '../../src/stores/meta/leases.js';
import { findLiveSiteByName } from '../../src/stores/meta/sites.js';
import { type FixtureEvent, insertEvents } from '../support/eventFixtures.js';
import { ManualClock } from '../support/manualClock.js';
import { freshPostgresDatabase } from '../support/postgres.js';
import { type Account, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { zipOf } from '../support/zip.js';

const NOW = Date.parse('2024-01-10T12:00:00Z');
const silent = pino({ level: 'silent' });

const postgres = await freshPostgresDatabase();
const backends: Array<[string, () => Promise<MetaStore>]> = [
  ['SQLite', () => openMetaStore({ kind: 'sqlite', path: join(mkdtempSync(join(tmpdir(), 'svc-leases-')), 'meta.sqlite') })],
];
if (postgres) backends.push(['PostgreSQL', () => openMetaStore({ kind: 'postgres', url: postgres.url })]);
afterAll(() => postgres?.drop());

describe.each(backends)('leases on %s', (_name, open) => {
  let store: MetaStore;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store.close());

  it('are claimed by one holder, renewed by it, and taken over once they expire', async () => {
    const clock = new ManualClock(NOW);
    const db = store.db;
    expect(await claimLease(db, 'rollups', 'a', clock.now())).toBe(true);
    // Claiming again is renewing for its holder, refused to anyone else.
    expect(await claimLease(db, 'rollups', 'a', clock.now())).toBe(true);
    expect(await claimLease(db, 'rollups', 'b', clock.now())).toBe(false);
    clock.advance(LEASE_PERIOD_MS / 3);
    expect(await renewLease(db, 'rollups', 'a', clock.now())).toBe(true);
    clock.advance(LEASE_PERIOD_MS - 1);
    expect(await claimLease(db, 'rollups', 'b', clock.now())).toBe(false);
    expect(await readLease(db, 'rollups')).toMatchObject({ holder: 'a', expiresAt: NOW + LEASE_PERIOD_MS / 3 + LEASE_PERIOD_MS });
    // a stops renewing: one period after its last renewal, b takes it, and a's renewal fails.
    clock.advance(1);
    expect(await claimLease(db, 'rollups', 'b', clock.now())).toBe(true);
    expect(await renewLease(db, 'rollups', 'a', clock.now())).toBe(false);
    await releaseLease(db, 'rollups', 'a');
    expect((await readLease(db, 'rollups'))?.holder).toBe('b');
    await releaseLease(db, 'rollups', 'b');
    expect(await readLease(db, 'rollups')).toBeUndefined();
    expect(await claimLease(db, 'rollups', 'a', clock.now())).toBe(true);
    await releaseLease(db, 'rollups', 'a');
  });

  it('run work on one holder at a time; one that stops renewing is replaced after one lease period', async () => {
    const clock = new ManualClock(NOW);
    // Renewals that never come in this test's time: the holder as good as dead.
    const a = createLeases({ db: store.db, clock, holder: 'node-a', renewEveryMs: 3_600_000 });
    const b = createLeases({ db: store.db, clock, holder: 'node-b' });
    let finishA!: () => void;
    const aRunning = a.run('purge', () => new Promise<string>((resolve) => (finishA = () => resolve('a done'))));
    await until(async () => (await readLease(store.db, 'purge'))?.holder === 'node-a');
    expect(await b.run('purge', async () => 'b ran')).toEqual({ ran: false });
    clock.advance(LEASE_PERIOD_MS - 1);
    expect(await b.run('purge', async () => 'b ran')).toEqual({ ran: false });
    clock.advance(1);
    expect(await b.run('purge', async () => 'b ran')).toEqual({ ran: true, value: 'b ran' });
    // The old holder's release touches nothing of the new one's (b released its own already).
    finishA();
    expect(await aRunning).toEqual({ ran: true, value: 'a done' });
    expect(await b.held('purge')).toBe(false);
  });

  it('wait for a held lease when asked, up to a bound', async () => {
    const clock = new ManualClock(NOW);
    const a = createLeases({ db: store.db, clock, holder: 'node-a' });
    const b = createLeases({ db: store.db, clock, holder: 'node-b' });
    expect(await a.claim('clickhouse-migrations')).toBe(true);
    await expect(b.runWhenFree('clickhouse-migrations', async () => 'b', { pollMs: 5, timeoutMs: 30 })).rejects.toThrow(
      'Waited 0 s for the lease clickhouse-migrations, still held by node-a',
    );
    const waiting = b.runWhenFree('clickhouse-migrations', async () => 'b migrated', { pollMs: 5, timeoutMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 30));
    await a.release('clickhouse-migrations');
    expect(await waiting).toBe('b migrated');
    expect(await a.held('clickhouse-migrations')).toBe(false);
  });
});

describe.runIf(postgres)('leases on PostgreSQL, claimed at once from several connections', () => {
  const stores: MetaStore[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 6; i++) stores.push(await openMetaStore({ kind: 'postgres', url: postgres!.url }));
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
  });

  it('go to exactly one claimer, whether the lease is new or expired', async () => {
    for (let round = 0; round < 20; round++) {
      const name = `import:${round}`;
      const fresh = await Promise.all(stores.map((store, i) => claimLease(store.db, name, `node-${i}`, NOW)));
      expect(fresh.filter(Boolean)).toHaveLength(1);
      // Its holder died: every node finds it expired at once.
      const later = NOW + LEASE_PERIOD_MS;
      const taken = await Promise.all(stores.map((store, i) => claimLease(store.db, name, `other-${i}`, later)));
      expect(taken.filter(Boolean)).toHaveLength(1);
      const holder = (await readLease(stores[0]!.db, name))?.holder;
      expect(holder).toBe(`other-${taken.indexOf(true)}`);
    }
  });
});

describe('leased work on one metadata store and one event store', () => {
  let t: TestApp;
  let clock: ManualClock;
  beforeAll(async () => {
    clock = new ManualClock(NOW);
    t = await startTestApp({ clock });
    // Rounds run when a test asks, and imports on the runners a test starts: the app's own sweep
    // would otherwise claim an import a test marks as held by a dead node before the test claims it.
    await t.app.jobs.stop();
    await t.app.imports.stop();
  });
  afterAll(() => t?.close());

  const worker = async (holder: string) => {
    const rollups = await openRollups({
      client: t.app.events.jobs,
      cluster: null,
      memoryLimitBytes: t.app.config.query.memoryLimitBytes,
      flushWrites: async () => {},
      onError: (error) => {
        throw error;
      },
    });
    const leases = createLeases({ db: t.app.meta.db, clock, holder });
    const jobs = startBackgroundJobs({ meta: t.app.meta.db, events: t.app.events, rollups, clock, log: silent, leases, timers: false });
    return { rollups, leases, jobs };
  };

  const scalar = async (query: string, siteId: number) => {
    const result = await t.app.events.query.query({ query, query_params: { site: siteId }, format: 'JSONEachRow' });
    return Number((await result.json<{ n: string }>())[0]?.n ?? 0);
  };
  /** Pageviews as raw visits count them, as the visitors roll-up sums them, and as the pages roll-up counts them. */
  const sums = async (siteId: number) => ({
    raw: await scalar('SELECT sum(sign * pageviews) AS n FROM sessions WHERE site_id = {site:UInt64}', siteId),
    visitors: await scalar('SELECT sum(pageviews) AS n FROM daily_visitors WHERE site_id = {site:UInt64} AND days = 1', siteId),
    pages: await scalar('SELECT sum(pageviews) AS n FROM daily_pages WHERE site_id = {site:UInt64} AND days = 1', siteId),
  });
  const rolledDays = (rollups: Rollups, account: Account) => rollups.coverage(account.siteId)?.through;

  const day = (date: string, visitors: number): FixtureEvent[] =>
    Array.from({ length: visitors }, (_, i) => [
      { visitor: `${date}-${i}`, at: `${date} 10:0${i % 10}:00`, page: '/' },
      { visitor: `${date}-${i}`, at: `${date} 10:0${i % 10}:30`, page: '/docs' },
    ]).flat();

  it('two workers roll each day up once: roll-up sums equal raw sums, however their rounds fall', async () => {
    const account = await createAccount(t.app);
    await insertEvents(t.app, account.siteId, [...day('2024-01-05', 3), ...day('2024-01-06', 4), ...day('2024-01-08', 2)]);
    const a = await worker('worker-a');
    const b = await worker('worker-b');
    // Both at once: the lease lets one roll.
    await Promise.all([a.jobs.runOnce(), b.jobs.runOnce()]);
    expect(await sums(account.siteId)).toEqual({ raw: 18, visitors: 18, pages: 18 });
    // The other, whose memory knew nothing of it, reads the coverage before its own round and rolls nothing again.
    await b.jobs.runOnce();
    await a.jobs.runOnce();
    expect(await sums(account.siteId)).toEqual({ raw: 18, visitors: 18, pages: 18 });
    expect(rolledDays(a.rollups, account)).toBe('2024-01-09');
    expect(rolledDays(b.rollups, account)).toBe('2024-01-09');

    // A new day closes; the workers alternate.
    await insertEvents(t.app, account.siteId, day('2024-01-10', 5));
    clock.advance(24 * 3_600_000);
    await b.jobs.runOnce();
    await a.jobs.runOnce();
    expect(await sums(account.siteId)).toEqual({ raw: 28, visitors: 28, pages: 28 });

    // A late row arrives at an ingest node (the app, which read the coverage as its periodic re-read does):
    // the stale mark is in the store for the workers and the query nodes.
    await t.app.rollups.reload();
    expect(t.app.rollups.coverage(account.siteId)?.through).toBe('2024-01-10');
    await insertEvents(
      t.app,
      account.siteId,
      day('2024-01-06', 1).map((event) => ({ ...event, visitor: 'late' })),
    );
    expect(t.app.rollups.coverage(account.siteId)?.through).toBe('2024-01-05');
    const query = await worker('query-node');
    expect(rolledDays(query.rollups, account)).toBe('2024-01-05');
    await a.rollups.reload();
    expect(rolledDays(a.rollups, account)).toBe('2024-01-05');
    await b.jobs.runOnce();
    expect(await sums(account.siteId)).toEqual({ raw: 30, visitors: 30, pages: 30 });
    await a.jobs.runOnce();
    await query.jobs.runOnce();
    expect(await sums(account.siteId)).toEqual({ raw: 30, visitors: 30, pages: 30 });
    await query.rollups.reload();
    await t.app.rollups.reload();
    expect(rolledDays(query.rollups, account)).toBe('2024-01-10');
    expect(rolledDays(t.app.rollups, account)).toBe('2024-01-10');

    // A worker that never saw the mark (started after it) rolls those days again without adding to their rows.
    await insertEvents(
      t.app,
      account.siteId,
      day('2024-01-08', 1).map((event) => ({ ...event, visitor: 'later' })),
    );
    const fresh = await worker('fresh');
    expect(rolledDays(fresh.rollups, account)).toBe('2024-01-07');
    await fresh.jobs.runOnce();
    expect(await sums(account.siteId)).toEqual({ raw: 32, visitors: 32, pages: 32 });
    for (const w of [a, b, query, fresh]) await w.jobs.stop();
  });

  it('a round asked for while one is under way follows it, and rolls up the sites created meanwhile', async () => {
    const w = await worker('asking');
    // Three days to roll up keep the first round busy while the account below is created.
    const busy = await createAccount(t.app);
    const days = Array.from({ length: 3 }, (_, i) => new Date(Date.parse('2023-11-01') + i * 86_400_000).toISOString().slice(0, 10));
    await insertEvents(
      t.app,
      busy.siteId,
      days.flatMap((date) => day(date, 3)),
    );
    let underWay = true;
    const under = w.jobs.runOnce().finally(() => {
      underWay = false;
    });
    // The round reads the live sites right after claiming its lease.
    while ((await readLease(t.app.meta.db, 'rollups'))?.holder !== 'asking') await new Promise((resolve) => setImmediate(resolve));
    const account = await createAccount(t.app);
    await insertEvents(t.app, account.siteId, day('2024-01-05', 2));
    // The case this test is about: a round under way that read the live sites before the account existed.
    expect(underWay).toBe(true);
    await w.jobs.runOnce();
    expect(underWay).toBe(false);
    expect(await sums(account.siteId)).toEqual({ raw: 4, visitors: 4, pages: 4 });
    expect(await sums(busy.siteId)).toEqual({ raw: 18, visitors: 18, pages: 18 });
    await under;
    await w.jobs.stop();
  });

  it("a holder that stops renewing is replaced after one lease period, and the round is the other's", async () => {
    const account = await createAccount(t.app);
    await insertEvents(t.app, account.siteId, day('2024-01-09', 3));
    const b = await worker('worker-b2');
    // worker-a2 took the round's lease and died.
    expect(await claimLease(t.app.meta.db, 'rollups', 'worker-a2', clock.now())).toBe(true);
    await b.jobs.runOnce();
    expect(await sums(account.siteId)).toEqual({ raw: 6, visitors: 0, pages: 0 });
    clock.advance(LEASE_PERIOD_MS - 1);
    await b.jobs.runOnce();
    expect(await sums(account.siteId)).toEqual({ raw: 6, visitors: 0, pages: 0 });
    clock.advance(1);
    await b.jobs.runOnce();
    expect(await sums(account.siteId)).toEqual({ raw: 6, visitors: 6, pages: 6 });
    expect(await readLease(t.app.meta.db, 'rollups')).toBeUndefined();
    await b.jobs.stop();
  });

  it('ClickHouse migrations already applied are skipped without the lease', async () => {
    const leases = createLeases({ db: t.app.meta.db, clock, holder: 'starting-node' });
    expect(await claimLease(t.app.meta.db, 'clickhouse-migrations', 'other-node', clock.now())).toBe(true);
    let guarded = 0;
    const applied = await migrateEvents(t.app.events.jobs, { cluster: null }, clock.now(), (work) => {
      guarded += 1;
      return leases.runWhenFree('clickhouse-migrations', () => work(), { pollMs: 5, timeoutMs: 50 });
    });
    expect(applied).toEqual([]);
    expect(guarded).toBe(0);
    const [row] = await (await t.app.events.query.query({ query: 'SELECT max(version) AS v FROM schema_migrations', format: 'JSONEachRow' })).json<{
      v: number;
    }>();
    expect(Number(row?.v)).toBe(EVENT_MIGRATIONS.at(-1)?.version);
    await releaseLease(t.app.meta.db, 'clickhouse-migrations', 'other-node');
  });

  it('an import whose holder died restarts from its saved upload on another runner', async () => {
    const account = await createAccount(t.app);
    const filesDir = mkdtempSync(join(tmpdir(), 'svc-files-'));
    const record = await createImport(t.app.meta.db, { siteId: account.siteId, fileName: 'visitors.zip', userId: null }, clock.now());
    const visitors = 'date,visitors,pageviews,bounces,visits,visit_duration\n2024-01-01,10,25,4,12,600\n2024-01-02,7,9,5,8,120\n';
    writeFileSync(uploadPath(filesDir, record.id), await zipOf({ 'imported_visitors_20240101_20240102.csv': visitors }));
    // The node running it wrote some rows, then died holding its lease.
    await updateImport(t.app.meta.db, record.id, { status: 'running' });
    await t.app.events.ingest.insert({
      table: 'rollup_visitors',
      values: [{ site_id: account.siteId, import_id: record.id, date: '2024-01-01', visitors: 10, pageviews: 25, bounces: 4, visits: 12, visit_duration: 600 }],
      format: 'JSONEachRow',
    });
    expect(await claimLease(t.app.meta.db, `import:${record.id}`, 'dead-node', clock.now())).toBe(true);

    const leases = createLeases({ db: t.app.meta.db, clock, holder: 'worker-c' });
    const runner = createImportRunner({
      db: t.app.meta.db,
      events: t.app.events,
      ingestion: t.app.ingestion,
      clock,
      log: silent,
      dataDir: filesDir,
      leases,
      sweepMs: 3_600_000,
    });
    await runner.sweep();
    await runner.idle();
    expect((await getImport(t.app.meta.db, record.id))?.status).toBe('running');
    clock.advance(LEASE_PERIOD_MS);
    await runner.sweep();
    await runner.idle();
    expect(await getImport(t.app.meta.db, record.id)).toMatchObject({ status: 'completed', rows: 2, fromDate: '2024-01-01', toDate: '2024-01-02' });
    const result = await t.app.events.query.query({
      query: 'SELECT toString(date) AS date, sum(visitors) AS visitors FROM rollup_visitors WHERE site_id = {site:UInt64} GROUP BY date ORDER BY date',
      query_params: { site: account.siteId },
      format: 'JSONEachRow',
    });
    // The dead node's rows were removed before the import ran again: nothing doubled.
    expect((await result.json<{ date: string; visitors: string }>()).map((row) => [row.date, Number(row.visitors)])).toEqual([
      ['2024-01-01', 10],
      ['2024-01-02', 7],
    ]);
    expect(await readLease(t.app.meta.db, `import:${record.id}`)).toBeUndefined();
    await runner.stop();
  });

  it('an export whose holder died is listed as failed, with the sentence to prepare it again', async () => {
    const account = await createAccount(t.app);
    const site = (await findLiveSiteByName(t.app.meta.db, account.domain, clock.now()))!;
    const filesDir = mkdtempSync(join(tmpdir(), 'svc-files-'));
    mkdirSync(join(filesDir, 'exports'), { recursive: true });
    // Another node's export being written, its lease renewed a moment ago.
    const id = 'abcdefabcdefabcdefabcdef';
    const holder = 'other-host:1:beef/exports/cafe';
    const job = {
      id,
      siteId: site.id,
      range: { from: '2024-01-01', to: '2024-01-09' },
      fileName: 'x.zip',
      status: 'preparing',
      createdAt: clock.now(),
      finishedAt: null,
      bytes: null,
      error: null,
      holder,
    };
    writeFileSync(join(filesDir, 'exports', `${id}.json`), JSON.stringify(job));
    expect(await claimLease(t.app.meta.db, `export:${id}`, holder, clock.now())).toBe(true);
    const jobs = createExportJobs({ db: t.app.meta.db, events: t.app.events, clock, dataDir: filesDir });
    await jobs.sweep();
    expect(jobs.list(site.id).map(({ id, status }) => ({ id, status }))).toEqual([{ id, status: 'preparing' }]);
    // It stops renewing: after one lease period this node finds the lease expired.
    clock.advance(LEASE_PERIOD_MS);
    await jobs.sweep();
    expect(jobs.list(site.id).map(({ id, status, error }) => ({ id, status, error }))).toEqual([{ id, status: 'failed', error: INTERRUPTED_EXPORT }]);
    // Every node reads the same record.
    const other = createExportJobs({ db: t.app.meta.db, events: t.app.events, clock, dataDir: filesDir });
    expect(other.list(site.id)[0]).toMatchObject({ id, status: 'failed', error: INTERRUPTED_EXPORT });
    jobs.stop();
    other.stop();
  });

  it('holders are random per process', () => {
    expect(NODE_ID).toMatch(/^.+:\d+:[0-9a-f]{8}$/);
  });
});

async function until(condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('condition never held');
}
