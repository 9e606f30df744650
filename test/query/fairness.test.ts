import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect } from '../support/collect.js';
import { type Account, bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';

// One team's costly query must not hold up another team's, nor collection.
describe('queries of different teams side by side', () => {
  let t: TestApp;
  let heavy: Account;
  let light: Account;
  beforeAll(async () => {
    t = await startTestApp({ env: { TRUSTED_PROXIES: '127.0.0.1' } });
    heavy = await createAccount(t.app);
    light = await createAccount(t.app);
    // Long page paths for the heavy team: a costly (but accepted) pattern takes seconds over them.
    // Written in blocks the size ingestion writes, as every path is distinct: one block of all
    // 400,000 would build a 1 GB LowCardinality dictionary (src/stores/clickhouse/schema.ts).
    // All within today (UTC, the site's zone), which the queries ask about: in the first hour
    // after midnight `now() - 1 h` put most of them in yesterday and the costly query had none.
    await t.app.events.jobs.command({
      query: `INSERT INTO events (timestamp, site_id, name, user_id, session_id, hostname, pathname)
              SELECT greatest(toStartOfDay(now(), 'UTC'), now() - number % 3600), {site:UInt64}, 'pageview', number % 5000, number, 'heavy.example', concat('/', repeat('ab/', 400), toString(number))
              FROM numbers(400000)
              SETTINGS max_block_size = 8192, max_insert_block_size = 8192`,
      query_params: { site: heavy.siteId },
    });
  }, 120_000);
  afterAll(() => t.close());

  const query = (account: Account, body: Record<string, unknown>) =>
    fetch(`${t.url}/api/v2/query`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: account.domain, date_range: 'day', ...body }),
    });

  it("answers another team's simple query, and collects events, while a costly query runs", async () => {
    const order: string[] = [];
    const costly = query(heavy, { metrics: ['visitors'], filters: [['matches', 'event:page', ['b.{500}9']]] }).then((res) => {
      order.push('costly');
      return res;
    });
    // Let the costly statement reach the engine first.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const simple = await query(light, { metrics: ['visitors', 'pageviews'] });
    order.push('simple');
    expect(simple.status).toBe(200);
    const event = await collect(t, { n: 'pageview', d: light.domain, u: `https://${light.domain}/` }, { ip: '81.2.69.142' });
    order.push('event');
    expect(event.status).toBe(202);
    expect((await costly).status).toBe(200);
    expect(order).toEqual(['simple', 'event', 'costly']);
  }, 120_000);

  it('refuses a pattern too costly to match with a sentence', async () => {
    const res = await query(heavy, { metrics: ['visitors'], filters: [['matches', 'event:page', ['.{1000}x']]] });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toContain('too costly to match');
  });
});
