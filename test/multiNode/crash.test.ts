import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MultiNode, multiNodeSkip, type ServiceNode, startMultiNode, until } from '../support/multiNode.js';
import type { Account } from '../support/testApp.js';
import { type Answer, acknowledged, send, visitorAddress } from './send.js';

/**
 * SIGKILL of an ingest node under load loses no event it acknowledged (its
 * journal, src/ingest/journal.ts, replays when it starts again on its DATA_DIR), and its
 * visitors, sent to the other node meanwhile, continue their visits there.
 */
describe.skipIf(multiNodeSkip !== null)('an ingest node killed under load', () => {
  let set: MultiNode;
  let a: ServiceNode;
  let b: ServiceNode;
  let account: Account;
  const visitors = 120;
  /** Every event sent: its unique path, the visitor, and what the node answered. */
  const sent: { path: string; visitor: number; node: string; answer: Answer }[] = [];

  beforeAll(async () => {
    set = await startMultiNode();
    a = await set.startNode('ingest-a', 'ingest');
    b = await set.startNode('ingest-b', 'ingest');
    account = await set.createAccount();
  }, 120_000);
  afterAll(() => set?.close(), 60_000);

  it('loses no acknowledged event, once the node is started again on its DATA_DIR', async () => {
    let next = 0;
    let stopping = false;
    // Half the visitors go to A, half to B, as a load balancer with affinity sends them; once A
    // is gone, A's visitors go to B.
    const load = Promise.all(
      Array.from({ length: 12 }, async () => {
        while (!stopping) {
          const n = next++;
          const visitor = n % visitors;
          const node = visitor % 2 === 0 && a.running ? a : b;
          const path = `/crash-${n}`;
          const answer = await send(node, { n: 'pageview', d: account.domain, u: `https://${account.domain}${path}` }, visitorAddress(visitor, 6));
          sent.push({ path, visitor, node: node.name, answer });
        }
      }),
    );
    // Waits for counts of answers, not for time: a slow machine answers far fewer events in a fixed
    // wait, and the kill must come while node A has acknowledged enough to lose.
    const ackedAt = (node: ServiceNode) => sent.filter((event) => event.node === node.name && acknowledged(event.answer)).length;
    await until(
      async () => ackedAt(a),
      (n) => n > 300,
      60_000,
    );
    await a.kill();
    const killedAt = sent.length;
    await until(
      async () => sent.slice(killedAt).filter((event) => event.visitor % 2 === 0 && event.node === b.name).length,
      (n) => n > 300,
      60_000,
    );
    stopping = true;
    await load;
    expect(
      sent.slice(killedAt).some((event) => event.visitor % 2 === 0 && event.node === b.name),
      "A's visitors went on at B",
    ).toBe(true);

    await a.restart();
    const acked = sent.filter((event) => acknowledged(event.answer));
    const ackedOnA = acked.filter((event) => event.node === a.name).length;
    expect(ackedOnA, 'A acknowledged events before it was killed').toBeGreaterThan(100);
    const rows = await until(
      () =>
        set.rows<{ pathname: string; n: string }>(
          "SELECT pathname, count() AS n FROM events WHERE site_id = {site:UInt64} AND startsWith(pathname, '/crash-') GROUP BY pathname",
          { site: account.siteId },
        ),
      (got) => got.length >= acked.length,
      20_000,
    );
    const stored = new Map(rows.map((row) => [row.pathname, Number(row.n)]));
    const lost = acked.filter((event) => !stored.has(event.path));
    expect(
      lost.slice(0, 10).map((event) => `${event.path} on ${event.node}`),
      `${lost.length} of ${acked.length} acknowledged events are missing (${ackedOnA} were acknowledged by the killed node)`,
    ).toEqual([]);
    const twice = rows.filter((row) => Number(row.n) !== 1).map((row) => `${row.pathname} ×${row.n}`);
    expect(twice.slice(0, 10), `${twice.length} events were stored more than once after the replay`).toEqual([]);
  }, 180_000);

  it("continues the killed node's visitors' visits on the other node", async () => {
    // Every visitor's events fall within minutes: one visit each, whichever node took them.
    const split = await set.rows<{ user_id: string; visits: string }>(
      "SELECT user_id, uniqExact(session_id) AS visits FROM events WHERE site_id = {site:UInt64} AND startsWith(pathname, '/crash-') GROUP BY user_id HAVING visits > 1",
      { site: account.siteId },
    );
    const [visitorsStored] = await set.rows<{ n: string }>(
      "SELECT uniqExact(user_id) AS n FROM events WHERE site_id = {site:UInt64} AND startsWith(pathname, '/crash-')",
      { site: account.siteId },
    );
    expect(Number(visitorsStored?.n)).toBe(visitors);
    // Without live visits shared between the ingest nodes, B starts a new visit for each of A's visitors.
    expect(split.length, `${split.length} of ${visitors} visitors have more than one visit: B did not continue the visits A began`).toBe(0);
  }, 30_000);
});
