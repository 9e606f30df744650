import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('test harness', () => {
  it('serves health and an authenticated route', async () => {
    expect((await fetch(`${t.url}/api/health`)).status).toBe(200);
    const account = await createAccount(t.app);
    const res = await fetch(`${t.url}/api/v1/sites`, { headers: bearer(account.key) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ sites: [{ domain: account.domain, timezone: 'Etc/UTC' }], meta: { after: null, before: null, limit: 100 } });
  });
});
