import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ClickHouseClient, createClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectServer, type EventStore, openEventStore } from '../../src/stores/clickhouse/eventStore.js';
import { EVENT_MIGRATIONS } from '../../src/stores/clickhouse/migrations.js';
import { collect, stored } from '../support/collect.js';
import { ManualClock } from '../support/manualClock.js';
import { bearer, createAccount, startTestApp } from '../support/testApp.js';

/**
 * The test-only ClickHouse stand-in (test/support/clickhouseStandIn.ts), started as
 * `npm run clickhouse:stand-in` starts it, answering the product's server mode over real HTTP.
 */
let child: ChildProcess;
let exited: Promise<unknown>;
let url: string;
/** Everything the stand-in printed: it names each statement it refused. */
let output = '';
const dataDir = mkdtempSync(join(tmpdir(), 'stand-in-test-'));

beforeAll(async () => {
  child = spawn(process.execPath, ['scripts/clickhouse-stand-in.mjs', '--port', '0', '--data', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  exited = once(child, 'exit');
  url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    exited.then(() => reject(new Error(`the stand-in exited: ${output}`)));
  });
});

afterAll(async () => {
  child.kill('SIGTERM');
  const [code] = (await exited) as [number | null];
  rmSync(dataDir, { recursive: true, force: true });
  // It stops on SIGTERM by closing the engine, not by being killed.
  expect(code).toBe(0);
});

const rows = async <T>(client: ClickHouseClient, query: string, query_params: Record<string, unknown> = {}) =>
  (await client.query({ query, query_params, format: 'JSONEachRow' })).json<T>();

describe('the event store on the ClickHouse stand-in', () => {
  let store: EventStore;
  beforeAll(async () => {
    store = await openEventStore({ kind: 'server', url, database: 'stand_in_store', cluster: null }, Date.now());
  });
  afterAll(() => store.close());

  it('runs the migrations through it, in the database the URL names', async () => {
    const tables = await rows<{ name: string }>(store.query, 'SELECT name FROM system.tables WHERE database = currentDatabase()');
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['events', 'sessions', 'ingest_counters', 'schema_migrations', 'daily_visitors']));
    const [ledger] = await rows<{ v: number }>(store.query, 'SELECT max(version) AS v FROM schema_migrations');
    expect(ledger?.v).toBe(EVENT_MIGRATIONS.at(-1)?.version);
  });

  it('inserts rows and answers queries with typed parameters, values intact', async () => {
    const awkward = "it's a \\ back\tslash\nand 'quotes', ünïcødé {x:String}";
    await store.ingest.insert({
      table: 'events',
      values: [
        { timestamp: '2024-03-01 10:00:00', site_id: '7', name: 'pageview', user_id: '18446744073709551615', session_id: '1', pathname: awkward },
        { timestamp: '2024-03-02 11:00:00', site_id: '7', name: 'Signup', user_id: '2', session_id: '2', pathname: '/b' },
      ],
      format: 'JSONEachRow',
    });
    await store.ingest.insert({
      table: 'events',
      columns: ['timestamp', 'site_id', 'name', 'user_id', 'session_id', 'pathname'],
      values: [['2024-03-03 12:00:00', '8', 'pageview', '3', '3', '/c']],
      format: 'JSONCompactEachRow',
    });
    const found = await rows<{ pathname: string; user_id: string }>(
      store.query,
      'SELECT pathname, user_id FROM events WHERE site_id = {site:UInt64} AND toDate(timestamp) >= {from:Date} AND name IN {names:Array(String)} AND pathname != {not:String} ORDER BY timestamp',
      { site: 7, from: '2024-03-01', names: ['pageview', "it's"], not: '/b' },
    );
    // 64-bit integers come back as strings (the client's settings reach the engine).
    expect(found).toEqual([{ pathname: awkward, user_id: '18446744073709551615' }]);
    const [exact] = await rows<{ n: string }>(store.query, 'SELECT count() AS n FROM events WHERE pathname = {p:String}', { p: awkward });
    expect(exact?.n).toBe('1');
  });

  it('answers in the format asked for, with the headers a server sends', async () => {
    const json = await store.query.query({ query: 'SELECT toUInt32(2) AS two', format: 'JSON', query_id: 'stand-in-format' });
    expect(json.query_id).toBe('stand-in-format');
    expect(json.response_headers['x-clickhouse-format']).toBe('JSON');
    expect(json.response_headers['x-clickhouse-query-id']).toBe('stand-in-format');
    expect((await json.json<{ two: number }>()).data).toEqual([{ two: 2 }]);
    const compact = await store.query.query({ query: 'SELECT 1 AS a, {s:String} AS b', query_params: { s: 'x' }, format: 'JSONCompactEachRow' });
    expect(await compact.json()).toEqual([[1, 'x']]);
    const tsv = await store.query.query({ query: 'SELECT number FROM numbers(3)', format: 'TabSeparated' });
    expect(await tsv.text()).toBe('0\n1\n2\n');
    expect((await store.ingest.insert({ table: 'events', values: [], format: 'JSONEachRow' })).executed).toBe(false);
  });

  it('applies settings to their own statement only', async () => {
    const query = "SELECT toString(getSetting('max_result_rows')) AS limit";
    const once = await store.query.query({ query, format: 'JSONEachRow', clickhouse_settings: { max_result_rows: '12345' } });
    expect(await once.json()).toEqual([{ limit: '12345' }]);
    expect(await rows(store.query, query)).toEqual([{ limit: '0' }]);
  });

  it('passes errors on with ClickHouse code and name', async () => {
    await expect(store.query.query({ query: 'SELECT * FROM no_such_table', format: 'JSONEachRow' })).rejects.toMatchObject({
      code: '60',
      type: 'UNKNOWN_TABLE',
    });
    await expect(store.query.query({ query: 'SELECT {missing:String}', format: 'JSONEachRow' })).rejects.toMatchObject({
      code: '456',
      type: 'UNKNOWN_QUERY_PARAMETER',
    });
    await expect(store.jobs.command({ query: 'SELEC 1' })).rejects.toMatchObject({ code: '62', type: 'SYNTAX_ERROR' });
    await expect(store.query.query({ query: 'SELECT 1', format: 'JSONEachRow', clickhouse_settings: { no_such_setting: 1 } })).rejects.toMatchObject({
      code: '115',
      type: 'UNKNOWN_SETTING',
    });
    // The session stays usable after each refusal.
    expect(await rows(store.query, 'SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
    expect(await store.ping()).toBeUndefined();
  });

  it('reads gzip request bodies and compresses responses when the client asks', async () => {
    const client = createClient({ url, database: 'stand_in_store', compression: { request: true, response: true } });
    try {
      await client.insert({
        table: 'events',
        values: [{ timestamp: '2024-03-04 10:00:00', site_id: '9', name: 'pageview', user_id: '4', session_id: '4', pathname: '/gz' }],
        format: 'JSONEachRow',
      });
      const result = await client.query({ query: 'SELECT pathname FROM events WHERE site_id = {s:UInt64}', query_params: { s: 9 }, format: 'JSONEachRow' });
      expect(result.response_headers['content-encoding']).toBe('gzip');
      expect(await result.json()).toEqual([{ pathname: '/gz' }]);
    } finally {
      await client.close();
    }
  });
});

describe('inserts on a cluster', () => {
  it('are acknowledged once written to the shards: the ingestion client carries insert_distributed_sync', async () => {
    // Connected without migrating: the stand-in has no cluster to run ON CLUSTER DDL on, but the
    // client's settings travel with every statement it sends.
    const setting = "SELECT getSetting('insert_distributed_sync') AS sync";
    const cluster = connectServer({ kind: 'server', url, database: 'stand_in_store', cluster: 'analytics' }, 1);
    const single = connectServer({ kind: 'server', url, database: 'stand_in_store', cluster: null }, 1);
    try {
      expect(await rows(cluster.ingest, setting)).toEqual([{ sync: true }]);
      expect(await rows(cluster.query, setting)).toEqual([{ sync: false }]);
      expect(await rows(single.ingest, setting)).toEqual([{ sync: false }]);
    } finally {
      await Promise.all([cluster.close(), single.close()]);
    }
  });

  it('run a visit filter’s subquery on each shard: the query and job clients carry distributed_product_mode = local', async () => {
    // Refused by default on a cluster of several shards ("Double-distributed IN/JOIN subqueries is
    // denied"); events and sessions are sharded alike, by visitor, so a shard's own rows answer it.
    const setting = "SELECT toString(getSetting('distributed_product_mode')) AS mode";
    const cluster = connectServer({ kind: 'server', url, database: 'stand_in_store', cluster: 'analytics' }, 1);
    const single = connectServer({ kind: 'server', url, database: 'stand_in_store', cluster: null }, 1);
    try {
      expect(await rows(cluster.query, setting)).toEqual([{ mode: 'local' }]);
      expect(await rows(cluster.jobs, setting)).toEqual([{ mode: 'local' }]);
      expect(await rows(single.query, setting)).toEqual([{ mode: 'deny' }]);
    } finally {
      await Promise.all([cluster.close(), single.close()]);
    }
  });
});

describe('the whole service with CLICKHOUSE_URL on the stand-in', () => {
  it('accepts events and answers a stats query', async () => {
    const t = await startTestApp({
      clock: new ManualClock(Date.parse('2026-06-01T10:00:00Z')),
      env: { CLICKHOUSE_URL: `${url}/stand_in_app`, TRUSTED_PROXIES: '127.0.0.1' },
    });
    const before = output.length;
    try {
      expect(t.app.events.kind).toBe('server');
      const account = await createAccount(t.app, { domain: 'stand-in.example.com' });
      for (const [i, path] of ['/', '/pricing', '/'].entries()) {
        const res = await collect(t, { n: 'pageview', d: account.domain, u: `https://stand-in.example.com${path}` }, { ip: `81.2.69.${i + 1}` });
        expect(res.status).toBe(202);
      }
      expect(await stored(t, 'SELECT count() AS c FROM events WHERE site_id = {site:UInt64}', { site: account.siteId })).toEqual([{ c: '3' }]);
      const res = await fetch(`${t.url}/api/v2/query`, {
        method: 'POST',
        headers: { ...bearer(account.key), 'content-type': 'application/json' },
        body: JSON.stringify({
          site_id: account.domain,
          metrics: ['visitors', 'pageviews'],
          date_range: ['2026-06-01', '2026-06-01'],
          dimensions: ['event:page'],
        }),
      });
      const body = (await res.json()) as any;
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(body.results).toEqual([
        { dimensions: ['/'], metrics: [2, 2] },
        { dimensions: ['/pricing'], metrics: [1, 1] },
      ]);
      // Every statement the service sent on its way (migrations, buffer flushes, jobs, the query) was served.
      expect(output.slice(before)).not.toContain('refused');
    } finally {
      await t.close();
    }
  });
});
