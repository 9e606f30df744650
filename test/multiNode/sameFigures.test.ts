import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATE_UNAVAILABLE } from '../../src/ingest/sharedState.js';
import { inParallel, type MultiNode, multiNodeSkip, type ServiceNode, startMultiNode, until } from '../support/multiNode.js';
import type { Account } from '../support/testApp.js';
import { acknowledged, query, recentDays, send, visitorAddress } from './send.js';

/**
 * Two ingest nodes, one query+web node and one worker, as real processes on
 * PostgreSQL, Redis and the ClickHouse stand-in, give the figures one process would.
 */
describe.skipIf(multiNodeSkip !== null)('two ingest nodes, a query+web node and a worker', () => {
  let set: MultiNode;
  let ingest: ServiceNode[];
  let queryNode: ServiceNode;

  beforeAll(async () => {
    set = await startMultiNode();
    // The first node migrates both stores; the others start side by side.
    const a = await set.startNode('ingest-a', 'ingest');
    const [b, q] = await Promise.all([set.startNode('ingest-b', 'ingest'), set.startNode('query-web', 'query,web'), set.startNode('worker', 'worker')]);
    if (!b || !q) throw new Error('unreachable');
    ingest = [a, b];
    queryNode = q;
  }, 120_000);
  afterAll(() => set?.close(), 60_000);

  it('2,000 visitors × 5 pageviews sent round-robin give exactly the figures of one process', async () => {
    const account: Account = await set.createAccount();
    const visitors = 2_000;
    const pages = 5;
    const failures: string[] = [];
    // Each visitor's pageviews alternate between the nodes, page by page, as a load balancer without affinity sends them.
    for (let page = 0; page < pages; page++) {
      await inParallel(
        Array.from({ length: visitors }, (_, i) => i),
        32,
        async (i) => {
          const node = ingest[(i + page) % 2] as ServiceNode;
          const answer = await send(node, { n: 'pageview', d: account.domain, u: `https://${account.domain}/page-${page}` }, visitorAddress(i, 2));
          if (!acknowledged(answer) && failures.length < 5) failures.push(`visitor ${i} page ${page} on ${node.name}: ${JSON.stringify(answer)}`);
        },
      );
    }
    expect(failures).toEqual([]);

    const sent = visitors * pages;
    const [stored] = await until(
      () => set.rows<{ n: string }>('SELECT count() AS n FROM events WHERE site_id = {site:UInt64}', { site: account.siteId }),
      (rows) => Number(rows[0]?.n) >= sent,
      20_000,
    );
    expect(Number(stored?.n)).toBe(sent);

    // One process makes one visit per visitor here (all within minutes), lasting from their first
    // pageview to their last: the truth, from the stored events, whichever node stored them.
    const [truth] = await set.rows<{ visitors: string; duration: number }>(
      `SELECT count() AS visitors, round(avg(last - first)) AS duration
         FROM (SELECT user_id, toUnixTimestamp(min(timestamp)) AS first, toUnixTimestamp(max(timestamp)) AS last
                 FROM events WHERE site_id = {site:UInt64} GROUP BY user_id)`,
      { site: account.siteId },
    );
    const expected = { visitors, visits: visitors, pageviews: sent, bounce_rate: 0, visit_duration: Number(truth?.duration) };
    expect(Number(truth?.visitors), 'each visitor has one visitor id whichever node hashed it').toBe(visitors);

    const metrics = ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration'] as const;
    const read = async () => {
      const answer = await query(queryNode, account.key, { site_id: account.domain, metrics, date_range: recentDays() });
      const values = answer.results[0]?.metrics ?? [];
      return Object.fromEntries(metrics.map((metric, i) => [metric, values[i]]));
    };
    // Visit rows are written with the flush after their event; wait until the figures stop moving.
    const figures = await until(read, (got) => metrics.every((m) => got[m] === expected[m]), 10_000);
    const differing = metrics.filter((m) => figures[m] !== expected[m]).map((m) => `${m}: ${figures[m]} (one process: ${expected[m]})`);
    // An event a node accepted on its own state, because Redis did not answer within
    // STATE_COMMAND_TIMEOUT_MS (a loaded machine: CI once split one visit of 2,000 so), may start
    // a visit of its own by design (docs/scaling.md); the health panel counts each such event.
    const [fallbacks] = await set.rows<{ n: string }>(
      'SELECT sum(value) AS n FROM ingest_counters WHERE site_id = {site:UInt64} AND reason = {reason:String}',
      {
        site: account.siteId,
        reason: STATE_UNAVAILABLE,
      },
    );
    const onOwnState = Number(fallbacks?.n ?? 0);
    if (onOwnState > 0) {
      expect([figures.visitors, figures.pageviews], `${onOwnState} events were taken on a node's own state`).toEqual([visitors, sent]);
      expect(Number(figures.visits), `${differing.join('; ')}, with ${onOwnState} events taken on a node's own state`).toBeLessThanOrEqual(
        visitors + onOwnState,
      );
      return;
    }
    // Without live visits shared between the ingest nodes, each node starts its own visit for a visitor it has not seen.
    expect(differing, `the query node's figures differ from one process's: ${differing.join('; ')}`).toEqual([]);
  }, 120_000);

  it('an engagement sent to node B joins the visit begun on node A', async () => {
    const account: Account = await set.createAccount();
    const [a, b] = ingest as [ServiceNode, ServiceNode];
    const ip = visitorAddress(7, 3);
    const url = `https://${account.domain}/article`;
    expect(acknowledged(await send(a, { n: 'pageview', d: account.domain, u: url }, ip))).toBe(true);
    // The visit must be known beyond node A before the engagement arrives at B.
    const [pageview] = await until(
      () => set.rows<{ session_id: string }>("SELECT session_id FROM events WHERE site_id = {site:UInt64} AND name = 'pageview'", { site: account.siteId }),
      (rows) => rows.length > 0,
    );
    expect(acknowledged(await send(b, { n: 'engagement', d: account.domain, u: url, sd: 80, e: 12_000 }, ip))).toBe(true);

    const engagements = await until(
      () => set.rows<{ session_id: string }>("SELECT session_id FROM events WHERE site_id = {site:UInt64} AND name = 'engagement'", { site: account.siteId }),
      (rows) => rows.length > 0,
      5_000,
    );
    // An engagement node B finds no visit for is held there for 30 minutes (then counted as
    // no_session_for_engagement), so it is never written within this wait.
    expect(engagements, `node B wrote no engagement within 5 s: it found no visit for the visitor (held waiting for a pageview)`).toHaveLength(1);
    expect(engagements[0]?.session_id).toBe(pageview?.session_id);

    const res = await fetch(`${queryNode.url}/api/v1/sites/${account.domain}/ingestion?hours=2`, { headers: { authorization: `Bearer ${account.key}` } });
    expect(res.status).toBe(200);
    const health = (await res.json()) as { totals: Record<string, number> };
    expect(health.totals.no_session_for_engagement ?? 0).toBe(0);
  }, 60_000);
});
