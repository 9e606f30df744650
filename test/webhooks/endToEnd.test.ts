import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svc } from '../support/processes.js';
import { createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { call } from './support/api.js';
import { type ReceivedRequest, type Receiver, startReceiver, verifySignature } from './support/receiver.js';

/**
 * The whole path on the real clock: a site created through the API route or the command-line
 * tool ends in a signed site.created POST, sent by the app's own background worker.
 * Requires the build (`npm run build`) for ./bin/svc.
 */

let service: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  service = await startTestApp();
  receiver = await startReceiver({ tls: false });
});

afterAll(async () => {
  await receiver?.close();
  await service?.close();
});

/** The background worker polls once a second; wait (in real time) for the site's delivery. */
async function deliveryFor(domain: string): Promise<ReceivedRequest> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const found = receiver.requests.find((request) => JSON.parse(request.rawBody.toString('utf8')).data?.domain === domain);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no site.created delivery for ${domain}`);
}

function expectSpecDelivery(request: ReceivedRequest, secret: string, site: { id: number; domain: string; timezone: string }): void {
  expect(request.method).toBe('POST');
  expect(request.headers['content-type']).toBe('application/json');
  expect(request.headers['user-agent']).toBe('svc-webhooks/1');
  expect(request.headers['svc-event']).toBe('site.created');
  expect(request.headers['svc-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  expect(verifySignature(request.rawBody, request.headers['svc-signature'], secret, Math.floor(Date.now() / 1000))).toBe(true);
  const deliveryId = String(request.headers['svc-delivery']);
  expect(deliveryId).toMatch(/^[1-9]\d{0,18}$/);
  expect(BigInt(deliveryId) <= 2n ** 63n - 1n).toBe(true);
  const body = JSON.parse(request.rawBody.toString('utf8'));
  expect(body.id).toBe(request.headers['svc-event-id']);
  expect(body.type).toBe('site.created');
  expect(Number.isInteger(body.created_at)).toBe(true);
  expect(Math.abs(body.created_at - Date.now() / 1000)).toBeLessThan(60);
  expect(body.site_id).toBe(site.id);
  expect(body.data).toMatchObject({ domain: site.domain, timezone: site.timezone });
}

describe('site.created end to end', () => {
  it('is delivered, signed, for sites created through POST /api/v1/sites and through ./bin/svc site create', async () => {
    const account = await createAccount(service.app);
    const hook = await call(service.url, account.key, 'POST', '/api/v1/webhooks', { url: `${receiver.url}/hooks`, event_types: ['site.created'] });
    expect(hook.status).toBe(201);
    expect(hook.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    const viaApi = await call(service.url, account.key, 'POST', '/api/v1/sites', { domain: `api-${process.pid}.example.com`, timezone: 'Europe/Paris' });
    expect(viaApi.status).toBe(200);
    const apiRequest = await deliveryFor(`api-${process.pid}.example.com`);
    expectSpecDelivery(apiRequest, hook.body.secret, {
      id: JSON.parse(apiRequest.rawBody.toString()).site_id,
      domain: `api-${process.pid}.example.com`,
      timezone: 'Europe/Paris',
    });

    const cliDomain = `cli-${process.pid}.example.com`;
    const created = await svc(['site', 'create', '--team', String(account.teamId), '--domain', cliDomain, '--timezone', 'Asia/Tokyo', '--json'], service.env);
    expect(created.code, created.stderr).toBe(0);
    const cliSite = JSON.parse(created.stdout);
    const cliRequest = await deliveryFor(cliDomain);
    expectSpecDelivery(cliRequest, hook.body.secret, { id: cliSite.id, domain: cliDomain, timezone: 'Asia/Tokyo' });
    expect(cliRequest.headers['svc-event-id']).not.toBe(apiRequest.headers['svc-event-id']);
  });
});
