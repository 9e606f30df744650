import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../support/manualClock.js';
import { type Account, bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { call } from './support/api.js';
import { type Receiver, startReceiver, verifySignature } from './support/receiver.js';

const VISITORS = 'date,visitors,pageviews,bounces,visits,visit_duration\n2024-01-01,10,25,4,12,600\n2024-01-02,7,9,5,8,120\n';
const NO_DATE = 'day,visitors,pageviews,bounces,visits,visit_duration\n2024-01-01,10,25,4,12,600\n';

// The end of an import, either way, reaches a subscribed receiver as a signed delivery.
describe('import webhook events', () => {
  const clock = new ManualClock(Date.parse('2026-03-01T12:00:00Z'));
  let t: TestApp;
  let receiver: Receiver;
  let account: Account;
  let secret: string;

  beforeAll(async () => {
    t = await startTestApp({ clock });
    await t.app.webhooks.stop();
    receiver = await startReceiver({ tls: false });
    account = await createAccount(t.app);
    const created = await call(t.url, account.key, 'POST', '/api/v1/webhooks', {
      url: `${receiver.url}/imports`,
      event_types: ['import.completed', 'import.failed'],
    });
    expect(created.status).toBe(201);
    secret = created.body.secret;
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  /** Uploads one CSV file, waits for its import to end and for the worker to deliver what it published. */
  async function importFile(fileName: string, body: string) {
    receiver.requests.length = 0;
    const response = await fetch(`${t.url}/api/v1/sites/${account.domain}/imports?file_name=${fileName}`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'text/csv' },
      body,
    });
    const accepted = await response.json();
    expect(response.status, JSON.stringify(accepted)).toBe(202);
    await t.app.imports.idle();
    await t.app.webhooks.tick();
    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests;
    expect(verifySignature(request!.rawBody, request!.headers['svc-signature'], secret, Math.floor(clock.now() / 1000))).toBe(true);
    return { importId: accepted.id as number, header: request!.headers['svc-event'], event: JSON.parse(request!.rawBody.toString('utf8')) };
  }

  it('sends import.completed with the days and rows imported', async () => {
    const { importId, header, event } = await importFile('imported_visitors_20240101_20240102.csv', VISITORS);
    expect(header).toBe('import.completed');
    expect(event).toMatchObject({
      type: 'import.completed',
      site_id: account.siteId,
      data: { import_id: importId, kind: 'export', domain: account.domain, from: '2024-01-01', to: '2024-01-02', rows: 2 },
    });
  });

  it('sends import.failed with the sentence the import record keeps', async () => {
    const { importId, header, event } = await importFile('imported_visitors_20240101_20240101.csv', NO_DATE);
    expect(header).toBe('import.failed');
    const record = await (await fetch(`${t.url}/api/v1/sites/${account.domain}/imports/${importId}`, { headers: bearer(account.key) })).json();
    expect(record.status).toBe('failed');
    expect(event).toMatchObject({
      type: 'import.failed',
      data: {
        import_id: importId,
        kind: 'export',
        domain: account.domain,
        error: record.error.message,
        file: 'imported_visitors_20240101_20240101.csv',
        line: 1,
      },
    });
    expect(event.data.error).toMatch(/no "date" column/);
  });
});
