import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertToken, Journal, readJournals } from '../../src/ingest/journal.js';
import { replayJournals } from '../../src/ingest/journalReplay.js';
import { EVENT_COLUMNS } from '../../src/ingest/rows.js';
import { registerSite } from '../../src/management/sites.js';
import { type EventStore, openEventStore } from '../../src/stores/clickhouse/eventStore.js';
import { ingestionStore } from '../../src/stores/clickhouse/ingestionStore.js';
import { openMetaStore } from '../../src/stores/meta/database.js';
import { createUserWithTeam } from '../../src/stores/meta/users.js';
import { CHROME_MAC } from '../support/collect.js';
import { buildRows } from '../support/eventFixtures.js';
import { startServiceProcess } from '../support/processes.js';

const silent = { error() {} };
const noCarry = () => [];

/** An events row as the buffer encodes it, told apart by its page. */
function eventLine(page: string): string {
  const [row] = buildRows(1, [{ visitor: 'v', at: '2026-07-02 10:00:00', page }]).events as unknown as Record<string, unknown>[];
  return JSON.stringify(EVENT_COLUMNS.map((column) => (row as Record<string, unknown>)[column]));
}

async function pages(store: EventStore): Promise<string[]> {
  const result = await store.query.query({ query: 'SELECT pathname FROM events ORDER BY pathname', format: 'JSONEachRow' });
  return (await result.json<{ pathname: string }>()).map((row) => row.pathname);
}

describe('the ingestion journal', () => {
  let store: EventStore;
  beforeAll(async () => {
    const path = mkdtempSync(join(tmpdir(), 'svc-journal-ch-'));
    store = await openEventStore({ kind: 'embedded', path, memoryLimitBytes: 1024 * 2 ** 20 }, Date.now());
  });
  afterAll(async () => {
    await store?.close();
  });

  it('keeps only whole lines, and reads back what the store did not confirm', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-journal-'));
    const journal = new Journal(dir, silent, noCarry);
    await journal.open([]);
    for (const page of ['/a', '/b', '/c']) journal.row('events', eventLine(page));
    journal.begin('events', 0, 1);
    journal.done('events', 0, 1);
    journal.begin('events', 1, 2);
    await journal.durable();
    // A crash in the middle of a write leaves a line cut short: it was never acknowledged.
    const segment = join(dir, readdirSync(dir)[0] as string);
    const written = readFileSync(segment, 'utf8').indexOf('\0');
    const file = openSync(segment, 'r+');
    writeSync(file, 'E ["2026-07-02 10:0', written);
    closeSync(file);
    const [replay] = readJournals(dir);
    expect(replay?.journalId).toBe(journal.id);
    expect(replay?.tables.events.firstSeq).toBe(1);
    expect(replay?.tables.events.lines.map((line) => JSON.parse(line)[6])).toEqual(['/b', '/c']);
    expect(replay?.tables.events.begun).toEqual({ seq: 1, count: 2 });
  });

  it('stores a batch the crash interrupted once, whether or not it had reached the store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-journal-'));
    const journal = new Journal(dir, silent, noCarry);
    await journal.open([]);
    const lines = ['/j1', '/j2', '/j3', '/j4'].map(eventLine);
    for (const line of lines) journal.row('events', line);
    journal.begin('events', 0, 2);
    await journal.durable();
    // The insert reached the store; the process died before it could write the confirmation.
    await ingestionStore(store).insertRows('events', lines.slice(0, 2), insertToken(journal.id, 'events', 0, 2));
    const replayed = await replayJournals(dir, ingestionStore(store));
    expect(replayed.rows.events).toBe(4);
    expect((await pages(store)).filter((page) => page.startsWith('/j'))).toEqual(['/j1', '/j2', '/j3', '/j4']);
    // A second crash during the replay replays it again, to the same result.
    await replayJournals(dir, ingestionStore(store));
    expect((await pages(store)).filter((page) => page.startsWith('/j'))).toEqual(['/j1', '/j2', '/j3', '/j4']);
    // The next journal deletes the replayed segments once its own first segment is on disk.
    const next = new Journal(dir, silent, noCarry);
    await next.open(replayed.segments);
    expect(readJournals(dir).map((r) => r.journalId)).toEqual([next.id]);
    await next.close();
  });

  it('deduplicates an insert only by its own token, never by one an earlier insert set on the connection', async () => {
    const insert = (pages: string[], token?: string) =>
      store.ingest.insert({
        table: 'events',
        values: pages.map(eventLine),
        format: 'JSONCompactEachRow',
        columns: [...EVENT_COLUMNS] as [string, ...string[]],
        ...(token ? { clickhouse_settings: { insert_deduplication_token: token } } : {}),
      });
    await insert(['/t1'], 'a-token');
    // chDB keeps a statement's settings on its connection: these must not inherit the token.
    await insert(['/t2']);
    await insert(['/t2']);
    expect((await pages(store)).filter((page) => page.startsWith('/t'))).toEqual(['/t1', '/t2', '/t2']);
    // Nor an INSERT … SELECT sent as a statement: each one after the first was dropped as a repeat.
    for (const copy of ['/s1', '/s2']) {
      await store.ingest.command({
        query: `INSERT INTO events (site_id, name, pathname, timestamp) SELECT site_id, name, '${copy}', timestamp FROM events WHERE pathname = '/t1'`,
      });
    }
    expect((await pages(store)).filter((page) => page.startsWith('/s'))).toEqual(['/s1', '/s2']);
  });

  it('carries held engagements into each new segment and forgets those released', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-journal-'));
    const held = [
      { id: 1, siteId: 1, userId: '11', row: { pathname: '/x' }, expiresAt: 10 },
      { id: 2, siteId: 1, userId: '12', row: { pathname: '/y' }, expiresAt: 20 },
    ];
    const journal = new Journal(dir, silent, noCarry);
    await journal.open([]);
    for (const record of held) journal.held(record);
    journal.released(1);
    await journal.durable();
    expect(readJournals(dir)[0]?.held).toEqual([held[1]]);
    const next = new Journal(dir, silent, () => [`H ${JSON.stringify(held[1])}`]);
    await next.open(readJournals(dir)[0]?.segments ?? []);
    expect(readJournals(dir)).toMatchObject([{ journalId: next.id, held: [held[1]] }]);
  });
});

describe('accepted means stored', () => {
  it('loses no acknowledged event and stores none twice across three SIGKILLs under load', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-crash-'));
    const meta = await openMetaStore({ kind: 'sqlite', path: join(dataDir, 'meta.sqlite') });
    const now = Date.now();
    const { teamId } = await createUserWithTeam(meta.db, { email: 'crash@example.com', name: 'Crash' }, now);
    const site = await registerSite(meta.db, { teamId, domain: 'crash.example.com', timezone: 'Etc/UTC' }, now);
    await meta.close();
    const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', TRUSTED_PROXIES: '127.0.0.1', CLICKHOUSE_MEMORY_LIMIT_MB: '1024' };

    const acknowledged: string[] = [];
    let n = 0;
    for (let round = 0; round < 3; round += 1) {
      const service = await startServiceProcess(env);
      let stopped = false;
      const sender = async () => {
        while (!stopped) {
          n += 1;
          const page = `/r${round}/e${n}`;
          const ip = `81.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
          try {
            const res = await fetch(`${service.url}/api/event`, {
              method: 'POST',
              headers: { 'user-agent': CHROME_MAC, 'x-forwarded-for': ip, 'content-type': 'text/plain' },
              body: JSON.stringify({ n: 'pageview', d: site.domain, u: `https://${site.domain}${page}` }),
            });
            if (res.status === 202 && res.headers.get('x-svc-dropped') === null) acknowledged.push(page);
          } catch {
            // The process died with this request open: it was never acknowledged.
          }
        }
      };
      const senders = Array.from({ length: 16 }, sender);
      // Killed at a different point of the write cycle each round: mid-batch, mid-flush, idle.
      await new Promise((resolve) => setTimeout(resolve, 700 + round * 450));
      service.child.kill('SIGKILL');
      await service.exited;
      stopped = true;
      await Promise.all(senders);
    }
    const last = await startServiceProcess(env);
    last.child.kill('SIGTERM');
    expect(await last.exited).toBe(0);

    const store = await openEventStore({ kind: 'embedded', path: join(dataDir, 'clickhouse'), memoryLimitBytes: 1024 * 2 ** 20 }, Date.now());
    try {
      const stored = await pages(store);
      expect(acknowledged.length).toBeGreaterThan(100);
      expect(new Set(stored).size).toBe(stored.length);
      const missing = acknowledged.filter((page) => !stored.includes(page));
      expect(missing).toEqual([]);
      const [totals] = await (
        await store.query.query({
          query: `SELECT (SELECT sum(sign) FROM sessions) AS visits, (SELECT sum(value) FROM ingest_counters WHERE reason = 'accepted') AS accepted`,
          format: 'JSONEachRow',
        })
      ).json<{ visits: string; accepted: string }>();
      // Every event was its own visitor's only pageview: one visit each, counted once.
      expect(Number(totals?.visits)).toBe(stored.length);
      expect(Number(totals?.accepted)).toBe(stored.length);
    } finally {
      await store.close();
    }
  });
});
