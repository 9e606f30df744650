import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MetaStore, openMetaStore } from '../../src/stores/meta/database.js';
import { claimDueDeliveries, fanOutEvents } from '../../src/webhooks/deliveries.js';
import { createWebhookWorker, type WebhookWorker } from '../../src/webhooks/worker.js';
import { ManualClock } from '../support/manualClock.js';
import { startTestApp, type TestApp } from '../support/testApp.js';
import { addSite, registerEndpoint } from './support/api.js';
import { type IsolatedMetadata, isolatedMetadata } from './support/database.js';
import { type Receiver, receiverCert, startReceiver } from './support/receiver.js';

const clock = new ManualClock(Date.parse('2026-03-01T12:00:00Z'));
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
let t: TestApp;
let metadata: IsolatedMetadata;
let receiver: Receiver;
/** Second and third connections to the same metadata store: stand-ins for other processes. */
const processes: MetaStore[] = [];

beforeAll(async () => {
  metadata = await isolatedMetadata();
  t = await startTestApp({ clock, env: metadata.env });
  await t.app.webhooks.stop();
  receiver = await startReceiver({ tls: true });
  for (let i = 0; i < 2; i += 1) processes.push(await openMetaStore(t.app.config.metadata));
});
afterAll(async () => {
  await receiver.close();
  for (const store of processes) await store.close();
  await t.close();
  await metadata.dispose();
});

function workerOn(store: MetaStore, leaseMs = 120_000): WebhookWorker {
  return createWebhookWorker({
    db: store.db,
    dialect: store.dialect,
    clock,
    logger: quiet,
    allowPrivate: false,
    secrets: t.app.webhookSecrets,
    tlsCa: receiverCert,
    concurrency: 4,
    leaseMs,
  });
}

/** Deliveries the receiver answered 2xx, by Svc-Delivery. */
function successesByDelivery(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const request of receiver.requests) {
    const id = String(request.headers['svc-delivery']);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

async function queuedCount(): Promise<number> {
  const rows = await t.app.meta.db.selectFrom('webhook_deliveries').select('id').where('state', '=', 'queued').execute();
  return rows.length;
}

describe('delivery across restarts and processes', () => {
  it('loses none and repeats no success when a worker stops mid-run and another takes over', async () => {
    receiver.requests.length = 0;
    const endpoint = await registerEndpoint(t.app, t.url, clock, `${receiver.url}/restart`);
    for (let i = 0; i < 12; i += 1) await addSite(t.app, clock, endpoint.account.teamId);

    const first = workerOn(processes[0]!);
    let stopped: Promise<void> | undefined;
    receiver.answer = () => {
      // Stop the first worker while its first batch is in flight.
      stopped ??= first.stop();
      return { status: 200 };
    };
    await first.tick();
    await stopped;
    const afterFirst = receiver.requests.length;
    expect(afterFirst).toBeGreaterThan(0);
    expect(afterFirst).toBeLessThan(12);

    receiver.answer = () => ({ status: 200 });
    const second = workerOn(processes[1]!);
    await second.tick();
    await second.tick();
    const counts = successesByDelivery();
    expect(counts.size).toBe(12);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(new Set(receiver.requests.map((r) => r.headers['svc-event-id'])).size).toBe(12);
    expect(await queuedCount()).toBe(0);
  });

  it('hands a delivery claimed by a worker that died to another only when its lease runs out', async () => {
    receiver.requests.length = 0;
    const endpoint = await registerEndpoint(t.app, t.url, clock, `${receiver.url}/crash`);
    await addSite(t.app, clock, endpoint.account.teamId);
    const survivor = workerOn(processes[1]!, 60_000);
    // Fan out only: nothing due is attempted before the "crashed" worker claims it.
    const claimant = processes[0]!;
    await fanOutEvents(claimant.db, clock.now());
    const claim = await claimDueDeliveries(claimant.db, claimant.dialect, clock.now(), { limit: 10, leaseMs: 60_000 });
    expect(claim.ids).toHaveLength(1);

    await survivor.tick();
    expect(receiver.requests).toHaveLength(0);
    clock.advance(60_001);
    await survivor.tick();
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]!.headers['svc-delivery']).toBe(String(claim.ids[0]));
  });

  it('gives each delivery to exactly one of several workers running at once', async () => {
    receiver.requests.length = 0;
    receiver.answer = () => ({ status: 200 });
    const endpoint = await registerEndpoint(t.app, t.url, clock, `${receiver.url}/parallel`);
    for (let i = 0; i < 30; i += 1) await addSite(t.app, clock, endpoint.account.teamId);
    // Separate PostgreSQL pools race for real. Separate SQLite connections inside one process
    // would block each other's thread (better-sqlite3 waits synchronously), so on SQLite the
    // workers interleave on one connection, and SQLite's single writer does the rest.
    const stores = t.app.meta.dialect === 'postgres' ? [t.app.meta, processes[0]!, processes[1]!] : [t.app.meta, t.app.meta, t.app.meta];
    const workers = stores.map((store) => workerOn(store));
    await Promise.all(workers.map((worker) => worker.tick()));
    const counts = successesByDelivery();
    expect(counts.size).toBe(30);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(await queuedCount()).toBe(0);
  });

  it('gives each delivery to exactly one of several worker processes', async () => {
    receiver.requests.length = 0;
    receiver.answer = () => ({ status: 200 });
    const endpoint = await registerEndpoint(t.app, t.url, clock, `${receiver.url}/processes`);
    for (let i = 0; i < 24; i += 1) await addSite(t.app, clock, endpoint.account.teamId);
    const support = new URL('./support/', import.meta.url);
    const run = () =>
      promisify(execFile)(
        process.execPath,
        ['--import', fileURLToPath(new URL('registerTsLoader.mjs', support)), fileURLToPath(new URL('workerProcess.ts', support))],
        {
          env: {
            ...process.env,
            SVC_TEST_METADATA: JSON.stringify(t.app.config.metadata),
            SVC_TEST_NOW: String(clock.now()),
            SVC_TEST_SECRET_KEY_BASE: t.app.config.secretKeyBase,
            SVC_TEST_CA: fileURLToPath(new URL('../fixtures/receiver-cert.pem', support)),
          },
        },
      );
    const outputs = await Promise.all([run(), run(), run()]);
    const summaries = outputs.map((output) => JSON.parse(output.stdout) as { attempted: number });
    expect(summaries.reduce((sum, summary) => sum + summary.attempted, 0)).toBe(24);
    const counts = successesByDelivery();
    expect(counts.size).toBe(24);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(await queuedCount()).toBe(0);
  }, 60_000);
});
