import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_COLUMNS, SESSION_COLUMNS } from '../../src/ingest/rows.js';
import { DAILY_ROLLUPS } from '../../src/stores/clickhouse/dailyRollups.js';
import { addColumnStatements, createTableStatements, modifyColumnStatements, modifySettingStatements } from '../../src/stores/clickhouse/ddl.js';
import { EVENT_MIGRATIONS, migrateEvents } from '../../src/stores/clickhouse/migrations.js';
import { WINDOW_ROLLUPS } from '../../src/stores/clickhouse/rollupWindows.js';
import { EVENTS, LOW_CARDINALITY_COLUMNS, ROLLUPS, SESSIONS } from '../../src/stores/clickhouse/schema.js';
import { startTestApp, type TestApp } from '../support/testApp.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function rows<T>(sql: string, params: Record<string, unknown> = {}): Promise<T[]> {
  const result = await t.app.events.query.query({ query: sql, query_params: params, format: 'JSONEachRow' });
  return result.json<T>();
}

describe('the embedded event store', () => {
  it('has every table after start-up migrations, and migrating again applies nothing', async () => {
    const tables = (await rows<{ name: string }>('SELECT name FROM system.tables WHERE database = currentDatabase()')).map((r) => r.name);
    const expected = [
      'events',
      'sessions',
      'ingest_counters',
      'schema_migrations',
      'rollup_coverage',
      ...[...ROLLUPS, ...DAILY_ROLLUPS, ...WINDOW_ROLLUPS].map((r) => r.name),
    ];
    expect(tables.sort()).toEqual(expected.sort());
    // The ten tables of design.md, in the reference's shape for imports and as aggregate states of our own events.
    const ten = ['visitors', 'sources', 'pages', 'entry_pages', 'exit_pages', 'custom_events', 'locations', 'devices', 'browsers', 'operating_systems'];
    expect(ROLLUPS.map((r) => r.name)).toEqual(ten.map((n) => `rollup_${n}`));
    // Beside them, each day's events in one row (migration 12), and four of them by one key alone (migration 14).
    const ours = [...ten, 'event_totals', 'countries', 'source_names', 'browser_names', 'operating_system_names'];
    expect(DAILY_ROLLUPS.map((r) => r.name).sort()).toEqual(ours.map((n) => `daily_${n}`).sort());
    expect(WINDOW_ROLLUPS.map((r) => r.name).sort()).toEqual(ours.map((n) => `window_${n}`).sort());
    expect(await migrateEvents(t.app.events.jobs, { cluster: null }, Date.now())).toEqual([]);
    const ledger = await rows<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(ledger.map((r) => Number(r.version))).toEqual(EVENT_MIGRATIONS.map((m) => m.version));
    // Window rows hold sets of up to half a megabyte each: ClickHouse merges them a few at a time (migration 7).
    const created = await rows<{ create_table_query: string }>("SELECT create_table_query FROM system.tables WHERE name = 'window_pages'");
    expect(created[0]!.create_table_query).toMatch(/merge_max_block_size = 16, max_parts_to_merge_at_once = 16/);
    // A granule holds at most 64 KiB, so reading one group's visitor sets reads few others (migration 11).
    const granules = await rows<{ name: string; create_table_query: string }>(
      "SELECT name, create_table_query FROM system.tables WHERE database = currentDatabase() AND (name LIKE 'daily\\_%' OR name LIKE 'window\\_%')",
    );
    expect(granules.map((table) => table.name).sort()).toEqual([...DAILY_ROLLUPS, ...WINDOW_ROLLUPS].map((def) => def.name).sort());
    for (const table of granules) expect(table.create_table_query).toMatch(/index_granularity_bytes = 65536/);
    // Events arrive in small parts many times a second: they wait for more similar parts before a merge (migration 10).
    const events = await rows<{ create_table_query: string }>(
      "SELECT create_table_query FROM system.tables WHERE database = currentDatabase() AND name = 'events'",
    );
    expect(events[0]!.create_table_query).toMatch(/merge_selector_base = 20/);
  });

  it('runs a query on more than one core under a small memory limit', async () => {
    // ClickHouse 26 drops to one thread while less than 1 GiB per thread of the server's limit
    // is free; the embedded default is 2 GiB, the test app's 1 GiB (src/stores/clickhouse/eventStore.ts).
    expect(t.app.config.clickhouse).toMatchObject({ kind: 'embedded', memoryLimitBytes: 2 ** 30 });
    const plan = await rows<{ explain: string }>('EXPLAIN PIPELINE SELECT sum(number) FROM numbers_mt(10000000)');
    const reading = plan.map((line) => line.explain.trim()).find((line) => line.startsWith('NumbersRange'));
    const streams = Number(/× (\d+)/.exec(reading ?? '')?.[1] ?? 1);
    if (availableParallelism() > 1) expect(streams).toBeGreaterThan(1);
    else expect(streams).toBe(1);
  });

  it('takes ingestion rows in exactly the tables’ columns', async () => {
    const columns = async (table: string) =>
      (
        await rows<{ name: string }>(
          "SELECT name FROM system.columns WHERE database = currentDatabase() AND table = {t:String} AND default_kind != 'MATERIALIZED' ORDER BY position",
          { t: table },
        )
      ).map((r) => r.name);
    expect([...EVENT_COLUMNS].sort()).toEqual((await columns('events')).sort());
    expect([...SESSION_COLUMNS].sort()).toEqual((await columns('sessions')).sort());
  });

  it('stores page paths, hostnames and sources as LowCardinality, their compression kept', async () => {
    for (const [table, names] of Object.entries(LOW_CARDINALITY_COLUMNS)) {
      const columns = await rows<{ name: string; type: string; compression_codec: string }>(
        'SELECT name, type, compression_codec FROM system.columns WHERE database = currentDatabase() AND table = {t:String} AND has({names:Array(String)}, name)',
        { t: table, names },
      );
      expect(columns.map((c) => c.name).sort()).toEqual([...names].sort());
      for (const column of columns) expect(column).toMatchObject({ type: 'LowCardinality(String)', compression_codec: 'CODEC(ZSTD(3))' });
    }
  });

  it('round-trips an event with bound parameters, 64-bit ids intact', async () => {
    const userId = '18446744073709551557';
    await t.app.events.ingest.insert({
      table: 'events',
      format: 'JSONEachRow',
      values: [
        {
          timestamp: '2026-04-01 10:00:00',
          site_id: 7,
          name: 'pageview',
          user_id: userId,
          session_id: '42',
          hostname: 'example.com',
          pathname: '/pricing',
          props: { plan: 'pro' },
          revenue_source_amount: '12.5',
          revenue_source_currency: 'EUR',
          country_code: 'DE',
        },
      ],
    });
    const [row] = await rows<Record<string, unknown>>(
      "SELECT user_id, pathname, props['plan'] AS plan, revenue_source_amount, interactive, scroll_depth FROM events WHERE site_id = {site:UInt64} AND pathname = {path:String}",
      { site: 7, path: '/pricing' },
    );
    expect(row).toEqual({ user_id: userId, pathname: '/pricing', plan: 'pro', revenue_source_amount: 12.5, interactive: 1, scroll_depth: 0 });
  });

  it('refuses an insert with a misspelt column instead of storing defaults', async () => {
    await expect(
      t.app.events.ingest.insert({ table: 'events', format: 'JSONEachRow', values: [{ timestamp: '2026-04-01 10:00:00', site_id: 7, nmae: 'typo' }] }),
    ).rejects.toThrow();
    const [count] = await rows<{ c: string }>("SELECT count() AS c FROM events WHERE name = 'typo' OR name = ''");
    expect(count?.c).toBe('0');
  });

  it('collapses versioned session rows to the latest state', async () => {
    const base = { session_id: '9', site_id: 7, user_id: '1', start: '2026-04-01 10:00:00', hostname: 'example.com', entry_page: '/' };
    await t.app.events.ingest.insert({
      table: 'sessions',
      format: 'JSONEachRow',
      values: [
        { ...base, sign: 1, events: 1, pageviews: 1, is_bounce: 1, timestamp: '2026-04-01 10:00:00', duration: 0 },
        { ...base, sign: -1, events: 1, pageviews: 1, is_bounce: 1, timestamp: '2026-04-01 10:00:00', duration: 0 },
        { ...base, sign: 1, events: 2, pageviews: 2, is_bounce: 0, timestamp: '2026-04-01 10:05:00', duration: 300 },
      ],
    });
    const [visit] = await rows<Record<string, number>>(
      'SELECT sum(sign) AS visits, sum(sign * pageviews) AS pageviews, sum(sign * is_bounce) AS bounces, sum(sign * duration) AS duration FROM sessions WHERE site_id = 7',
    );
    expect(visit).toEqual({ visits: '1', pageviews: '2', bounces: '0', duration: '300' });
  });

  it('bounds a runaway query with its own settings and lives on', async () => {
    await expect(rows('SELECT count() FROM numbers(10000000000) WHERE sipHash64(number) % 7 = 3 SETTINGS max_execution_time = 1')).rejects.toThrow(
      /TIMEOUT|time limit|Timeout/i,
    );
    expect(await rows<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });
});

describe('DDL for a cluster', () => {
  it('renders Replicated local tables behind Distributed ones, sharded by visitor', () => {
    const [local, distributed] = createTableStatements(SESSIONS, { cluster: 'analytics' });
    expect(local).toMatch(/^CREATE TABLE IF NOT EXISTS sessions_local ON CLUSTER analytics/);
    expect(local).toContain(
      "ENGINE = ReplicatedVersionedCollapsingMergeTree('/clickhouse/tables/{shard}/{database}/sessions_local', '{replica}', sign, events)",
    );
    expect(local).toContain('SAMPLE BY user_id');
    expect(distributed).toBe(
      'CREATE TABLE IF NOT EXISTS sessions ON CLUSTER analytics AS sessions_local\nENGINE = Distributed(analytics, currentDatabase(), sessions_local, user_id)',
    );
  });

  it('adds a column to the local tables and the Distributed table in front of them', () => {
    expect(addColumnStatements('events', 'idempotency_key String', { cluster: 'analytics' })).toEqual([
      'ALTER TABLE events_local ON CLUSTER analytics ADD COLUMN IF NOT EXISTS idempotency_key String',
      'ALTER TABLE events ON CLUSTER analytics ADD COLUMN IF NOT EXISTS idempotency_key String',
    ]);
    expect(addColumnStatements('events', 'idempotency_key String', { cluster: null })).toEqual([
      'ALTER TABLE events ADD COLUMN IF NOT EXISTS idempotency_key String',
    ]);
  });

  it('changes a column type on the local tables, waiting for the rows, and on the Distributed table', () => {
    expect(modifyColumnStatements('events', 'pathname LowCardinality(String)', { cluster: 'analytics' })).toEqual([
      'ALTER TABLE events_local ON CLUSTER analytics MODIFY COLUMN pathname LowCardinality(String) SETTINGS mutations_sync = 2',
      'ALTER TABLE events ON CLUSTER analytics MODIFY COLUMN pathname LowCardinality(String) SETTINGS mutations_sync = 2',
    ]);
  });

  it('changes MergeTree settings on the local tables only: a Distributed table has none', () => {
    expect(modifySettingStatements('window_pages', 'merge_max_block_size = 16', { cluster: 'analytics' })).toEqual([
      'ALTER TABLE window_pages_local ON CLUSTER analytics MODIFY SETTING merge_max_block_size = 16',
    ]);
    expect(modifySettingStatements('window_pages', 'merge_max_block_size = 16', { cluster: null })).toEqual([
      'ALTER TABLE window_pages MODIFY SETTING merge_max_block_size = 16',
    ]);
  });

  it('renders plain engines on one node', () => {
    const statements = createTableStatements(EVENTS, { cluster: null });
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(
      /ENGINE = MergeTree\(\)\nPARTITION BY toYYYYMM\(timestamp\)\nORDER BY \(site_id, toDate\(timestamp\), name, user_id, timestamp\)\nSAMPLE BY user_id/,
    );
  });
});
