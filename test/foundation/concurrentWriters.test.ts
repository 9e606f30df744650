import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svc } from '../support/processes.js';
import { type Account, bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';

// Many CLI writers at once beside a server that is writing itself (API routes,
// the webhook worker, background jobs) on the same SQLite file; none may fail with "database is locked".
describe('concurrent metadata writers on SQLite (requires the build)', () => {
  let t: TestApp;
  let account: Account;
  beforeAll(async () => {
    t = await startTestApp();
    account = await createAccount(t.app);
    await fetch(`${t.url}/api/v1/webhooks`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://localhost:9/hooks', event_types: [] }),
    });
  });
  afterAll(() => t.close());

  it('lets 24 CLI writers and the server write at once, every one succeeding', async () => {
    let serverWriting = true;
    const serverWrites = (async () => {
      let i = 0;
      const failures: string[] = [];
      while (serverWriting) {
        i += 1;
        const responses = await Promise.all([
          fetch(`${t.url}/api/v1/sites/goals`, {
            method: 'PUT',
            headers: { ...bearer(account.key), 'content-type': 'application/json' },
            body: JSON.stringify({ site_id: account.domain, goal_type: 'event', event_name: `Event ${i}` }),
          }),
          fetch(`${t.url}/api/v1/sites`, {
            method: 'POST',
            headers: { ...bearer(account.key), 'content-type': 'application/json' },
            body: JSON.stringify({ domain: `server-${i}.example.com` }),
          }),
        ]);
        for (const response of responses) if (response.status >= 300) failures.push(`${response.status} ${await response.text()}`);
        await Promise.all([t.app.webhooks.tick(), t.app.jobs.runOnce()]);
      }
      return failures;
    })();
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) => svc(['site', 'create', '--team', String(account.teamId), '--domain', `cli-${i}.example.com`, '--json'], t.env)),
    );
    serverWriting = false;
    const serverFailures = await serverWrites;
    const failed = results.filter((result) => result.code !== 0).map((result) => result.stderr);
    expect(failed).toEqual([]);
    expect(serverFailures).toEqual([]);
    const sites = await (await fetch(`${t.url}/api/v1/sites?limit=1000`, { headers: bearer(account.key) })).json();
    const domains = sites.sites.map((site: { domain: string }) => site.domain);
    for (let i = 0; i < 24; i += 1) expect(domains).toContain(`cli-${i}.example.com`);
  }, 120_000);
});
