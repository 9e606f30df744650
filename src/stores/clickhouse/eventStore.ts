import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type ClickHouseClient, type ClickHouseSettings, createClient } from '@clickhouse/client';
import type { Config } from '../../config/config.js';
import { inlineParameters } from './inlineParameters.js';
import { type MigrationGuard, migrateEvents } from './migrations.js';

const require = createRequire(import.meta.url);

/**
 * The analytics store, reached only through @clickhouse/client. Embedded, chDB plugs into the
 * same client; each chDB connection runs one operation at a time, so ingestion writes, API
 * queries and background jobs each get their own connection and never wait on each other.
 */
export interface EventStore {
  kind: 'embedded' | 'server';
  cluster: string | null;
  ingest: ClickHouseClient;
  /** For the service's own reads (health counters, tests); the first of `queries`. */
  query: ClickHouseClient;
  /** The connections that answer statistics queries side by side (src/query/run/queryScheduler.ts shares them). */
  queries: ClickHouseClient[];
  jobs: ClickHouseClient;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Inserts may hand over rows that are already JSON text (the ingestion buffer encodes each row
 * once, when it is accepted); every other value is stringified as usual.
 */
const JSON_HANDLING = {
  parse: JSON.parse,
  stringify: (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value)),
};

/** Identical on both backends, set on every statement (chDB applies client settings as SET). */
const CLIENT_SETTINGS: ClickHouseSettings = {
  // 64-bit integers as strings on both backends, so ids never lose precision.
  output_format_json_quote_64bit_integers: 1,
  // A misspelt column must fail the insert, not store a row of defaults.
  input_format_skip_unknown_fields: 0,
};

/**
 * On a cluster an insert into a Distributed table is acknowledged once it is queued on the node
 * that took it and forwarded to the shards in the background; with this setting it is
 * acknowledged only once written to them, so a flushed buffer's rows are stored, not queued.
 * `insert_distributed_sync` is the name every supported server accepts: ClickHouse 23.10 renamed
 * it `distributed_foreground_insert` and keeps the old name as its alias; older servers know only
 * the old name.
 */
export const INSERT_INTO_SHARDS: ClickHouseSettings = { insert_distributed_sync: 1 };

/**
 * On a cluster of more than one shard, a query over a Distributed table whose filter holds an
 * `IN` subquery over another Distributed table (a visit filter on an event query, `has_done`:
 * src/query/sql/filters.ts) is refused by default ("Double-distributed IN/JOIN subqueries is
 * denied", `distributed_product_mode = 'deny'`). `events` and `sessions` are both sharded by
 * visitor (schema.ts), so each shard holds every row of the visits its own rows belong to: the
 * subquery can run on each shard's local table, which is what `local` does, with no set of visits
 * sent between shards as `GLOBAL IN` would.
 */
export const SUBQUERIES_ON_SHARDS: ClickHouseSettings = { distributed_product_mode: 'local' };

/**
 * Embedded only. Since ClickHouse 26 a query runs on fewer threads while the free part of the
 * server's memory limit is under 1 GiB per thread (`max_threads_min_free_memory_per_thread`,
 * ClickHouse pull request #100383); under the embedded default limit of 2 GiB that put every
 * query on one thread of two, leaving a core idle (docs/benchmarks.md). A query here may use
 * QUERY_MEMORY_LIMIT_MB (512 by default), so a quarter GiB per thread keeps the guard against
 * starting threads the memory cannot feed without idling the second core. A server's own
 * settings are its operator's.
 */
const EMBEDDED_CLIENT_SETTINGS: ClickHouseSettings = {
  ...CLIENT_SETTINGS,
  max_threads_min_free_memory_per_thread: String(256 * 2 ** 20),
};

/**
 * Engine arguments that make embedded ClickHouse fit a small machine: a hard memory cap, small
 * caches and few background threads. docs/benchmarks.md measured the service with these.
 */
export function embeddedEngineArgs(memoryLimitBytes: number): string[] {
  return [
    `--max_server_memory_usage=${memoryLimitBytes}`,
    '--mark_cache_size=67108864',
    '--index_mark_cache_size=16777216',
    '--uncompressed_cache_size=0',
    '--index_uncompressed_cache_size=0',
    '--mmap_cache_size=256',
    '--query_cache.max_size_in_bytes=16777216',
    '--background_pool_size=2',
    '--background_merges_mutations_concurrency_ratio=2',
    '--background_schedule_pool_size=4',
    '--background_common_pool_size=2',
    '--background_move_pool_size=1',
    '--background_fetches_pool_size=1',
    '--background_buffer_flush_schedule_pool_size=1',
    '--background_distributed_schedule_pool_size=1',
    '--background_message_broker_schedule_pool_size=1',
    '--max_thread_pool_size=64',
    '--async_load_databases=0',
  ];
}

/**
 * Embedded only: statements leave with their parameters bound as literals (src/stores/clickhouse/
 * inlineParameters.ts), because chDB runs parameterized statements one at a time process-wide.
 */
function bindParametersLocally(client: ClickHouseClient): ClickHouseClient {
  const bind = <P extends { query: string; query_params?: Record<string, unknown> }>(params: P): P =>
    params.query_params && Object.keys(params.query_params).length > 0
      ? { ...params, query: inlineParameters(params.query, params.query_params), query_params: undefined }
      : params;
  const query = client.query.bind(client);
  const command = client.command.bind(client);
  const exec = client.exec.bind(client);
  client.query = ((params: Parameters<typeof query>[0]) => query(bind(params))) as typeof client.query;
  client.command = (params) => command(bind(params));
  client.exec = (params) => exec(bind(params));
  return client;
}

/**
 * Embedded only: chDB applies a statement's settings as SET on its connection, where they stay
 * for the statements after it. An insert's deduplication token (src/ingest/journal.ts) would
 * then make a later insert without one look like a repeat and be dropped; without a token, a
 * block equal to a recent one would be dropped too (`insert_deduplicate = 0` does not stop that
 * for tables that are not Replicated). So an insert without a token gets one of its own.
 */
function deduplicateOnlyByToken(client: ClickHouseClient): ClickHouseClient {
  const tokened = <P extends { clickhouse_settings?: ClickHouseSettings }>(params: P): P => ({
    ...params,
    clickhouse_settings: {
      ...params.clickhouse_settings,
      insert_deduplication_token: params.clickhouse_settings?.insert_deduplication_token || `once:${randomUUID()}`,
    },
  });
  const insert = client.insert.bind(client);
  client.insert = ((params: Parameters<typeof insert>[0]) => insert(tokened(params))) as typeof client.insert;
  // An INSERT … SELECT sent as a statement too: under a token left on the connection, every such
  // statement after the first was dropped as its repeat (seven of the bench's eight visit slices).
  const command = client.command.bind(client);
  client.command = (params) => command(/^\s*INSERT\b/i.test(params.query) ? tokened(params) : params);
  return client;
}

/** `migrationGuard`: runs pending migrations under a lease, so nodes starting together apply them once. */
export async function openEventStore(
  config: Config['clickhouse'],
  now: number,
  queryConnections = 1,
  options: { migrationGuard?: MigrationGuard } = {},
): Promise<EventStore> {
  const store = config.kind === 'embedded' ? openEmbedded(config, queryConnections) : connectServer(config, queryConnections);
  try {
    await migrateEvents(store.jobs, { cluster: store.cluster }, now, options.migrationGuard);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

function openEmbedded(config: Extract<Config['clickhouse'], { kind: 'embedded' }>, queryConnections: number): EventStore {
  mkdirSync(config.path, { recursive: true });
  const { Session } = require('chdb') as typeof import('chdb');
  const { createChdbConnection } = require('chdb/connection') as typeof import('chdb/connection');
  // The first session on a path decides the engine's arguments; connections opened after it share them.
  const session = new Session(config.path, { connectionArgs: embeddedEngineArgs(config.memoryLimitBytes) });
  // chdb types its connection against its own copy of @clickhouse/client-common; the shapes match.
  type ClientConnection = NonNullable<Parameters<typeof createClient>[0]>['connection'];
  const connect = () =>
    deduplicateOnlyByToken(
      bindParametersLocally(
        createClient({
          connection: createChdbConnection({ path: config.path }) as unknown as ClientConnection,
          clickhouse_settings: EMBEDDED_CLIENT_SETTINGS,
          json: JSON_HANDLING,
        }),
      ),
    );
  const ingest = connect();
  const queries = Array.from({ length: queryConnections }, connect);
  const jobs = connect();
  return {
    kind: 'embedded',
    cluster: null,
    ingest,
    query: queries[0] as ClickHouseClient,
    queries,
    jobs,
    ping: async () => {
      await jobs.query({ query: 'SELECT 1 SETTINGS max_execution_time = 5', format: 'JSONEachRow' });
    },
    close: async () => {
      await Promise.allSettled([ingest, ...queries, jobs].map((client) => client.close()));
      session.close();
    },
  };
}

/**
 * A ClickHouse server or cluster over HTTP, without migrating (openEventStore does that). Ingestion
 * has its own client so that, on a cluster, its inserts carry INSERT_INTO_SHARDS; the others'
 * statements carry SUBQUERIES_ON_SHARDS there.
 */
export function connectServer(config: Extract<Config['clickhouse'], { kind: 'server' }>, queryConnections: number): EventStore {
  const url = new URL(config.url);
  const connect = (settings: ClickHouseSettings) =>
    createClient({
      url: `${url.protocol}//${url.host}`,
      username: decodeURIComponent(url.username) || 'default',
      password: decodeURIComponent(url.password),
      database: config.database,
      clickhouse_settings: settings,
      json: JSON_HANDLING,
      request_timeout: 60_000,
    });
  const client = connect(config.cluster === null ? CLIENT_SETTINGS : { ...CLIENT_SETTINGS, ...SUBQUERIES_ON_SHARDS });
  const ingest = config.cluster === null ? client : connect({ ...CLIENT_SETTINGS, ...INSERT_INTO_SHARDS });
  return {
    kind: 'server',
    cluster: config.cluster,
    ingest,
    query: client,
    // Over HTTP one client runs statements side by side; the scheduler's slots bound how many.
    queries: Array.from({ length: queryConnections }, () => client),
    jobs: client,
    ping: async () => {
      const result = await client.ping();
      if (!result.success) throw result.error;
    },
    close: async () => {
      await Promise.all([...new Set([client, ingest])].map((each) => each.close()));
    },
  };
}
