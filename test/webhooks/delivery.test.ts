import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ATTEMPT_TIMEOUT_MS } from '../../src/contracts/webhookPolicy.js';
import { createSmtpMailer } from '../../src/mail/smtpMailer.js';
import { registerSite } from '../../src/management/sites.js';
import { lockTeam, unlockTeam } from '../../src/stores/meta/teams.js';
import { listOpenNotices, webhookNoticeMessage } from '../../src/webhooks/notices.js';
import { type Resolver, systemResolver } from '../../src/webhooks/sender.js';
import { createWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from '../../src/webhooks/worker.js';
import { startMailServer } from '../mail/mailServer.js';
import { ManualClock } from '../support/manualClock.js';
import { createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { addSite, call, registerEndpoint } from './support/api.js';
import { type IsolatedMetadata, isolatedMetadata } from './support/database.js';
import { type Receiver, receiverCert, startReceiver, verifySignature } from './support/receiver.js';

const clock = new ManualClock(Date.parse('2026-03-01T12:00:00Z'));
let t: TestApp;
let metadata: IsolatedMetadata;
const warnings: string[] = [];
const logger = { info: () => {}, warn: (_: object, message: string) => warnings.push(message), error: () => {} };
const receivers: Receiver[] = [];
const seconds = () => Math.floor(clock.now() / 1000);

/** Made-up names for the resolution tests; other names resolve as usual. */
const testResolver: Resolver = async (hostname) => {
  if (hostname === 'receiver.test') return [{ address: '127.0.0.1', family: 4 }];
  if (hostname === 'mixed.test')
    return [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
  return systemResolver(hostname);
};

function worker(options: Partial<WebhookWorkerOptions> = {}): WebhookWorker {
  return createWebhookWorker({
    db: t.app.meta.db,
    dialect: t.app.meta.dialect,
    clock,
    logger,
    allowPrivate: false,
    secrets: t.app.webhookSecrets,
    tlsCa: receiverCert,
    resolve: testResolver,
    attemptTimeoutMs: 1500,
    ...options,
  });
}
let main: WebhookWorker;

async function receiver(tls = true, host?: string): Promise<Receiver> {
  const r = await startReceiver({ tls, host });
  receivers.push(r);
  return r;
}

const log = async (key: string, id: number, query = '') => (await call(t.url, key, 'GET', `/api/v1/webhooks/${id}/deliveries${query}`)).body;

beforeAll(async () => {
  metadata = await isolatedMetadata();
  t = await startTestApp({ clock, env: metadata.env });
  await t.app.webhooks.stop();
  main = worker();
});
afterEach(async () => {
  // Pending retries of one test must not reach the next test's receivers.
  await t.app.meta.db.updateTable('webhook_deliveries').set({ state: 'cancelled' }).where('state', '=', 'queued').execute();
});
afterAll(async () => {
  for (const r of receivers) await r.close();
  await t.close();
  await metadata.dispose();
});

describe('signed delivery', () => {
  it('POSTs site.created over HTTPS with the spec headers and body, verifiable by a receiver', async () => {
    const r = await receiver();
    const endpoint = await registerEndpoint(t.app, t.url, clock, `${r.url}/hooks/svc?source=test`);
    const site = await addSite(t.app, clock, endpoint.account.teamId);
    const published = clock.now();
    clock.advance(2000);
    await main.tick();

    expect(r.requests).toHaveLength(1);
    const [request] = r.requests;
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/hooks/svc?source=test');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['user-agent']).toBe('svc-webhooks/1');
    expect(request!.headers['svc-event']).toBe('site.created');
    expect(request!.headers['svc-delivery']).toMatch(/^[1-9]\d*$/);
    const body = JSON.parse(request!.rawBody.toString('utf8'));
    expect(body).toEqual({
      id: request!.headers['svc-event-id'],
      type: 'site.created',
      created_at: Math.floor(published / 1000),
      site_id: site.id,
      data: { domain: site.domain, timezone: 'Europe/Berlin' },
    });
    expect(body.id).toMatch(/^evt_/);

    const header = request!.headers['svc-signature'];
    expect(header).toMatch(new RegExp(`^t=${seconds()},v1=[0-9a-f]{64}$`));
    expect(verifySignature(request!.rawBody, header, endpoint.secret, seconds())).toBe(true);
    // Anything but the exact raw bytes, the right secret and a fresh timestamp fails.
    const reserialised = Buffer.from(JSON.stringify(body, null, 1));
    expect(verifySignature(reserialised, header, endpoint.secret, seconds())).toBe(false);
    expect(verifySignature(request!.rawBody, header, `${endpoint.secret.slice(0, -1)}x`, seconds())).toBe(false);
    expect(verifySignature(request!.rawBody, header, endpoint.secret, seconds() + 300)).toBe(true);
    expect(verifySignature(request!.rawBody, header, endpoint.secret, seconds() + 301)).toBe(false);

    const entries = (await log(endpoint.account.key, endpoint.id)).deliveries;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      delivery_id: Number(request!.headers['svc-delivery']),
      delivery_state: 'succeeded',
      status_code: 200,
      error: null,
      response_body: 'ok',
      response_truncated: false,
      event_type: 'site.created',
    });
    expect(entries[0].attempted_at).toBe(new Date(clock.now()).toISOString());
    expect(entries[0].duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('delivers over plain http to 127.0.0.1 and honours event type subscriptions', async () => {
    const r = await receiver(false, '127.0.0.1');
    const all = await registerEndpoint(t.app, t.url, clock, `${r.url}/all`);
    await call(t.url, all.account.key, 'POST', '/api/v1/webhooks', { url: `${r.url}/imports`, event_types: ['import.failed'] });
    await call(t.url, all.account.key, 'POST', '/api/v1/webhooks', { url: `${r.url}/sites`, event_types: ['site.created', 'import.failed'] });
    await addSite(t.app, clock, all.account.teamId);
    await main.tick();
    expect(r.requests.map((request) => request.path).sort()).toEqual(['/all', '/sites']);
  });

  it('sends an endpoint the events published after its registration, not one published before it at the same instant', async () => {
    // The clock does not move: the team's first site is published, the endpoint registered and a
    // second site published at one instant, before the worker has fanned out the first site.
    const r = await receiver();
    const account = await createAccount(t.app);
    const hook = await call(t.url, account.key, 'POST', '/api/v1/webhooks', { url: `${r.url}/same-instant`, event_types: ['site.created'] });
    expect(hook.status).toBe(201);
    const after = await registerSite(t.app.meta.db, { teamId: account.teamId, domain: `after-${process.pid}.example.com`, timezone: 'Etc/UTC' }, clock.now());
    await main.tick();
    expect(r.requests.map((request) => JSON.parse(request.rawBody.toString('utf8')).site_id)).toEqual([after.id]);
  });

  it('signs with both secrets during the hour after a rotation, then only the new one', async () => {
    const r = await receiver();
    const endpoint = await registerEndpoint(t.app, t.url, clock, `${r.url}/rotating`);
    const rotated = await call(t.url, endpoint.account.key, 'POST', `/api/v1/webhooks/${endpoint.id}/rotate-secret`);
    await addSite(t.app, clock, endpoint.account.teamId);
    await main.tick();
    const during = r.requests[0]!;
    expect(String(during.headers['svc-signature']).match(/v1=/g)).toHaveLength(2);
    expect(verifySignature(during.rawBody, during.headers['svc-signature'], endpoint.secret, seconds())).toBe(true);
    expect(verifySignature(during.rawBody, during.headers['svc-signature'], rotated.body.secret, seconds())).toBe(true);

    clock.advance(3_600_000);
    await addSite(t.app, clock, endpoint.account.teamId);
    await main.tick();
    const after = r.requests[1]!;
    expect(String(after.headers['svc-signature']).match(/v1=/g)).toHaveLength(1);
    expect(verifySignature(after.rawBody, after.headers['svc-signature'], rotated.body.secret, seconds())).toBe(true);
    expect(verifySignature(after.rawBody, after.headers['svc-signature'], endpoint.secret, seconds())).toBe(false);
  });
});

describe('failures and retries', () => {
  it('retries 12 times on the injected clock: 30 s, ×3 each time, at most 6 hours, same Svc-Delivery', async () => {
    const r = await receiver();
    r.answer = () => ({ status: 500, body: 'down' });
    const endpoint = await registerEndpoint(t.app, t.url, clock, `${r.url}/flaky`);
    await addSite(t.app, clock, endpoint.account.teamId);
    await main.tick();
    expect(r.requests).toHaveLength(1);

    const expectedDelays = [30, 90, 270, 810, 2430, 7290, 21600, 21600, 21600, 21600, 21600, 21600];
    for (const [index, delay] of expectedDelays.entries()) {
      clock.advance(delay * 1000 - 1000);
      await main.tick();
      expect(r.requests, `retry ${index + 1} not before ${delay} s`).toHaveLength(index + 1);
      clock.advance(1000);
      await main.tick();
      expect(r.requests, `retry ${index + 1} at ${delay} s`).toHaveLength(index + 2);
    }
    clock.advance(7 * 3_600_000);
    await main.tick();
    expect(r.requests).toHaveLength(13);
    expect(new Set(r.requests.map((request) => request.headers['svc-delivery'])).size).toBe(1);
    expect(new Set(r.requests.map((request) => request.headers['svc-event-id'])).size).toBe(1);

    const page1 = await log(endpoint.account.key, endpoint.id, '?limit=5');
    expect(page1.deliveries).toHaveLength(5);
    expect(
      page1.deliveries.every((entry: { status_code: number; delivery_state: string }) => entry.status_code === 500 && entry.delivery_state === 'failed'),
    ).toBe(true);
    const times = page1.deliveries.map((entry: { attempted_at: string }) => entry.attempted_at);
    expect([...times].sort().reverse()).toEqual(times);
    const rest = await log(endpoint.account.key, endpoint.id, `?limit=100&after=${page1.meta.after}`);
    expect(rest.deliveries).toHaveLength(8);
    expect(rest.meta.after).toBeNull();
    expect(rest.deliveries[7].attempted_at < page1.deliveries[4].attempted_at).toBe(true);
  });

  it('tells the owners at 5 consecutive failures, stops at 15, and starts again when re-enabled', async () => {
    const r = await receiver();
    let status = 500;
    r.answer = () => ({ status });
    const endpoint = await registerEndpoint(t.app, t.url, clock, `${r.url}/broken`);
    const teamId = endpoint.account.teamId;
    const state = async () => (await call(t.url, endpoint.account.key, 'GET', `/api/v1/webhooks/${endpoint.id}`)).body;

    // Four failures and a success: the count starts over, nobody is told.
    for (let i = 0; i < 4; i += 1) await addSite(t.app, clock, teamId);
    await main.tick();
    expect((await state()).consecutive_failures).toBe(4);
    status = 200;
    await addSite(t.app, clock, teamId);
    await main.tick();
    expect((await state()).consecutive_failures).toBe(0);
    expect(await listOpenNotices(t.app.meta.db, teamId)).toEqual([]);

    status = 500;
    for (let i = 0; i < 5; i += 1) await addSite(t.app, clock, teamId);
    await main.tick();
    let notices = await listOpenNotices(t.app.meta.db, teamId);
    expect(notices.map((notice) => notice.kind)).toEqual(['webhook_failing']);
    expect(notices[0]!.message).toContain(`${r.url}/broken`);
    expect(warnings.some((message) => message.includes(`${r.url}/broken`) && message.includes('looks broken'))).toBe(true);
    expect((await state()).state).toBe('sending');

    for (let i = 0; i < 10; i += 1) await addSite(t.app, clock, teamId);
    await main.tick();
    const stopped = await state();
    expect(stopped).toMatchObject({ state: 'stopped', consecutive_failures: 15 });
    notices = await listOpenNotices(t.app.meta.db, teamId);
    expect(notices.map((notice) => notice.kind)).toEqual(['webhook_stopped', 'webhook_failing']);
    const sent = r.requests.length;
    expect(sent).toBe(4 + 1 + 5 + 10);

    // Stopped: neither retries nor new events are sent, and redelivery waits for re-enabling.
    status = 200;
    clock.advance(60_000);
    await addSite(t.app, clock, teamId);
    await main.tick();
    expect(r.requests).toHaveLength(sent);
    const lastDelivery = (await log(endpoint.account.key, endpoint.id, '?limit=1')).deliveries[0].delivery_id;
    expect((await call(t.url, endpoint.account.key, 'POST', `/api/v1/webhooks/deliveries/${lastDelivery}/redeliver`)).status).toBe(409);

    const enabled = await call(t.url, endpoint.account.key, 'POST', `/api/v1/webhooks/${endpoint.id}/enable`);
    expect(enabled.body).toMatchObject({ state: 'sending', consecutive_failures: 0, stopped_at: null });
    await addSite(t.app, clock, teamId);
    await main.tick();
    expect(r.requests).toHaveLength(sent + 1);
    expect((await state()).consecutive_failures).toBe(0);
  });

  it('sends nothing after the 15th consecutive failure, even with more deliveries due at once than that', async () => {
    const r = await receiver();
    r.answer = () => ({ status: 500 });
    const endpoint = await registerEndpoint(t.app, t.url, clock, `${r.url}/flooded`);
    for (let i = 0; i < 20; i += 1) await addSite(t.app, clock, endpoint.account.teamId);
    await main.tick();
    expect(r.requests).toHaveLength(15);
    const stopped = (await call(t.url, endpoint.account.key, 'GET', `/api/v1/webhooks/${endpoint.id}`)).body;
    expect(stopped).toMatchObject({ state: 'stopped', consecutive_failures: 15 });
  });

  it('refuses redirects instead of following them', async () => {
    const elsewhere = await receiver();
    const r = await receiver();
    r.answer = () => ({ status: 302, headers: { location: `${elsewhere.url}/moved` } });
    const endpoint = await registerEndpoint(t.app, t.url, clock, `${r.url}/old`);
    await addSite(t.app, clock, endpoint.account.teamId);
    await main.tick();
    expect(r.requests).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
    const [entry] = (await log(endpoint.account.key, endpoint.id)).deliveries;
    expect(entry).toMatchObject({ status_code: 302, error: 'redirect_refused', delivery_state: 'queued' });
  });

  it('gives up on a receiver that does not answer in time', async () => {
    expect(ATTEMPT_TIMEOUT_MS).toBe(10_000);
    const r = await receiver();
    r.answer = () => ({ status: 200, hang: true });
    const endpoint = await registerEndpoint(t.app, t.url, clock, `${r.url}/slow`);
    await addSite(t.app, clock, endpoint.account.teamId);
    const started = Date.now();
    await main.tick();
    expect(Date.now() - started).toBeLessThan(5000);
    const [entry] = (await log(endpoint.account.key, endpoint.id)).deliveries;
    expect(entry).toMatchObject({ status_code: null, error: 'timeout', delivery_state: 'queued' });
    expect(entry.duration_ms).toBeGreaterThanOrEqual(1400);
  });

  it('logs only the first 2 KB of the response, and connection errors', async () => {
    const r = await receiver();
    r.answer = () => ({ status: 200, body: 'é'.repeat(3000) });
    const endpoint = await registerEndpoint(t.app, t.url, clock, `${r.url}/chatty`);
    await addSite(t.app, clock, endpoint.account.teamId);
    await main.tick();
    const [entry] = (await log(endpoint.account.key, endpoint.id)).deliveries;
    expect(entry.response_truncated).toBe(true);
    expect(Buffer.byteLength(entry.response_body)).toBeLessThanOrEqual(2048);
    expect(entry.response_body.startsWith('é'.repeat(1000))).toBe(true);

    const gone = await receiver();
    const closed = await registerEndpoint(t.app, t.url, clock, `${gone.url}/gone`);
    await gone.close();
    await addSite(t.app, clock, closed.account.teamId);
    await main.tick();
    const [refused] = (await log(closed.account.key, closed.id)).deliveries;
    expect(refused).toMatchObject({ status_code: null, error: 'connection_error' });
    expect(refused.error_detail).toContain('ECONNREFUSED');
  });
});

describe('owner email', () => {
  it('emails the team owners when SMTP_URL is configured', async () => {
    const mail = await startMailServer();
    try {
      const r = await receiver();
      r.answer = () => ({ status: 503 });
      const endpoint = await registerEndpoint(t.app, t.url, clock, `${r.url}/mailed`);
      for (let i = 0; i < 5; i += 1) await addSite(t.app, clock, endpoint.account.teamId);
      const mailing = worker({ mailer: createSmtpMailer(`smtp://alerts:s3cret@127.0.0.1:${mail.port}?from=alerts@svc.example`) });
      await mailing.tick();
      expect(mail.mails).toHaveLength(1);
      const [sent] = mail.mails;
      const owner = await t.app.meta.db.selectFrom('users').select('email').where('id', '=', endpoint.account.userId).executeTakeFirstOrThrow();
      expect(sent).toMatchObject({ login: { username: 'alerts', password: 's3cret' }, from: 'alerts@svc.example', to: [owner.email], html: null });
      expect(sent!.headers).toMatchObject({ from: 'alerts@svc.example', to: owner.email, subject: 'A webhook endpoint needs attention' });
      expect(sent!.text).toBe(webhookNoticeMessage('webhook_failing', `${r.url}/mailed`));
      expect(sent!.text).toContain(`${r.url}/mailed looks broken`);
    } finally {
      await mail.close();
    }
  });
});

describe('redelivery', () => {
  it('creates a new delivery with a new id for the same event', async () => {
    const r = await receiver();
    const endpoint = await registerEndpoint(t.app, t.url, clock, `${r.url}/again`);
    await addSite(t.app, clock, endpoint.account.teamId);
    await main.tick();
    const original = r.requests[0]!;
    const redelivered = await call(t.url, endpoint.account.key, 'POST', `/api/v1/webhooks/deliveries/${original.headers['svc-delivery']}/redeliver`);
    expect(redelivered.status).toBe(202);
    expect(String(redelivered.body.delivery.id)).not.toBe(original.headers['svc-delivery']);
    expect(redelivered.body.delivery.event_id).toBe(original.headers['svc-event-id']);
    await main.tick();
    expect(r.requests).toHaveLength(2);
    const repeat = r.requests[1]!;
    expect(repeat.headers['svc-delivery']).toBe(String(redelivered.body.delivery.id));
    expect(repeat.headers['svc-event-id']).toBe(original.headers['svc-event-id']);
    expect(JSON.parse(repeat.rawBody.toString()).id).toBe(original.headers['svc-event-id']);
    const [entry] = (await log(endpoint.account.key, endpoint.id)).deliveries;
    expect(entry).toMatchObject({ delivery_id: redelivered.body.delivery.id, redelivery_of: Number(original.headers['svc-delivery']) });
  });
});

describe('locked teams', () => {
  it('withholds webhooks while locked and never replays them after unlock', async () => {
    const r = await receiver();
    let status = 500;
    r.answer = () => ({ status });
    const endpoint = await registerEndpoint(t.app, t.url, clock, `${r.url}/locked`);
    const teamId = endpoint.account.teamId;
    // A delivery waiting for its retry when the lock comes.
    await addSite(t.app, clock, teamId);
    await main.tick();
    expect(r.requests).toHaveLength(1);

    await lockTeam(t.app.meta.db, teamId, 'unpaid invoice', clock.now());
    status = 200;
    await addSite(t.app, clock, teamId);
    clock.advance(60_000);
    await main.tick();
    expect(r.requests).toHaveLength(1);

    await unlockTeam(t.app.meta.db, teamId);
    clock.advance(24 * 3_600_000);
    await main.tick();
    expect(r.requests).toHaveLength(1);

    const after = await addSite(t.app, clock, teamId);
    await main.tick();
    expect(r.requests).toHaveLength(2);
    expect(JSON.parse(r.requests[1]!.rawBody.toString()).site_id).toBe(after.id);
  });

  it('withholds an event published before the worker saw the lock', async () => {
    const r = await receiver();
    const endpoint = await registerEndpoint(t.app, t.url, clock, `${r.url}/late-lock`);
    await addSite(t.app, clock, endpoint.account.teamId);
    await lockTeam(t.app.meta.db, endpoint.account.teamId, 'unpaid invoice', clock.now());
    await main.tick();
    await unlockTeam(t.app.meta.db, endpoint.account.teamId);
    await main.tick();
    expect(r.requests).toHaveLength(0);
  });
});

describe('server-side request forgery', () => {
  it('refuses a name that resolves to loopback or private space, at delivery time', async () => {
    const r = await receiver(true, 'receiver.test');
    const endpoint = await registerEndpoint(t.app, t.url, clock, `${r.url}/internal`);
    const mixed = await call(t.url, endpoint.account.key, 'POST', '/api/v1/webhooks', { url: `https://mixed.test:${r.port}/x`, event_types: [] });
    expect(mixed.status).toBe(201);
    await addSite(t.app, clock, endpoint.account.teamId);
    await main.tick();
    expect(r.requests).toHaveLength(0);
    const [entry] = (await log(endpoint.account.key, endpoint.id)).deliveries;
    expect(entry).toMatchObject({ error: 'address_refused', status_code: null });
    expect(entry.error_detail).toContain('127.0.0.1');
    const [mixedEntry] = (await log(endpoint.account.key, mixed.body.id)).deliveries;
    expect(mixedEntry.error).toBe('address_refused');
  });

  it('delivers to internal receivers when the operator allows private addresses, keeping the host name for TLS', async () => {
    const r = await receiver(true, 'receiver.test');
    const endpoint = await registerEndpoint(t.app, t.url, clock, `${r.url}/internal`);
    await addSite(t.app, clock, endpoint.account.teamId);
    const internal = worker({ allowPrivate: true });
    await internal.tick();
    expect(r.requests).toHaveLength(1);
    expect(r.requests[0]!.headers.host).toBe(`receiver.test:${r.port}`);
  });
});
