import type { ClickHouseClient } from '@clickhouse/client';
import {
  COVERAGE_RUNS_COLUMN,
  COVERAGE_WINDOW_COLUMNS,
  dailyRollupDef,
  EVENT_TOTALS,
  FIRST_ROLLUP_TABLES,
  NARROW_TABLES,
  narrowedSelect,
  ROLLUP_COVERAGE,
  ROLLUP_GRANULES,
  ROLLUP_TABLES,
  type RollupTable,
  rollupTableName,
  VISITOR_BOUND_COLUMN,
} from './dailyRollups.js';
import { DAY_SO_FAR_TTL } from './daySoFar.js';
import {
  addColumnStatements,
  createTableStatements,
  type DdlTarget,
  fillColumnStatements,
  modifyColumnStatements,
  modifySettingStatements,
  modifyTtlStatements,
  rebuildTableStatements,
} from './ddl.js';
import { WINDOW_MERGE_SETTINGS, windowRollupDef, windowTableName } from './rollupWindows.js';
import {
  EVENTS,
  EVENTS_IDEMPOTENCY_KEY,
  EVENTS_MERGE_SETTINGS,
  INGEST_COUNTERS,
  JOURNAL_DEDUPLICATION_SETTINGS,
  LOW_CARDINALITY_COLUMNS,
  ROLLUPS,
  SESSIONS,
} from './schema.js';

/** The daily and window tables of migration 3's ten roll-ups: what migrations 3 to 11 ran over. */
const FIRST_DAILY_ROLLUPS = FIRST_ROLLUP_TABLES.map(dailyRollupDef);
const FIRST_WINDOW_ROLLUPS = FIRST_ROLLUP_TABLES.map(windowRollupDef);

export interface EventMigration {
  version: number;
  name: string;
  statements: (target: DdlTarget) => string[];
}

/** Versioned and append-only: a released migration is never edited, only followed. */
export const EVENT_MIGRATIONS: EventMigration[] = [
  {
    version: 1,
    name: 'events_sessions_rollups',
    statements: (target) => [EVENTS, SESSIONS, INGEST_COUNTERS, ...ROLLUPS].flatMap((def) => createTableStatements(def, target)),
  },
  {
    version: 2,
    name: 'events_idempotency_key',
    statements: (target) => addColumnStatements('events', EVENTS_IDEMPOTENCY_KEY, target),
  },
  {
    version: 3,
    name: 'daily_rollups',
    statements: (target) => [...FIRST_DAILY_ROLLUPS, ROLLUP_COVERAGE].flatMap((def) => createTableStatements(def, target)),
  },
  {
    version: 4,
    name: 'low_cardinality_pages_and_sources',
    statements: (target) =>
      Object.entries(LOW_CARDINALITY_COLUMNS).flatMap(([table, columns]) =>
        columns.flatMap((column) => modifyColumnStatements(table, `${column} LowCardinality(String)`, target)),
      ),
  },
  {
    version: 5,
    name: 'daily_rollups_visitor_bound',
    // Rows rolled up before this have their own count computed from their visitor set.
    statements: (target) =>
      FIRST_DAILY_ROLLUPS.flatMap((def) => [
        ...addColumnStatements(def.name, VISITOR_BOUND_COLUMN, target),
        ...fillColumnStatements(def.name, 'visitor_bound = finalizeAggregation(visitors)', target),
      ]),
  },
  {
    version: 6,
    name: 'window_rollups',
    statements: (target) => FIRST_WINDOW_ROLLUPS.flatMap((def) => createTableStatements(def, target)),
  },
  {
    version: 7,
    name: 'window_rollups_merge_blocks',
    statements: (target) => FIRST_WINDOW_ROLLUPS.flatMap((def) => modifySettingStatements(def.name, WINDOW_MERGE_SETTINGS, target)),
  },
  {
    version: 8,
    name: 'rollup_coverage_windows',
    statements: (target) => COVERAGE_WINDOW_COLUMNS.flatMap((column) => addColumnStatements(ROLLUP_COVERAGE.name, column, target)),
  },
  {
    version: 9,
    name: 'ingestion_insert_deduplication',
    // A replayed journal batch carries the token of the insert a crash interrupted
    // (src/ingest/journal.ts); the last 1,000 inserts' tokens are remembered to drop a repeat.
    statements: (target) => [EVENTS, SESSIONS, INGEST_COUNTERS].flatMap((def) => modifySettingStatements(def.name, JOURNAL_DEDUPLICATION_SETTINGS, target)),
  },
  {
    version: 10,
    name: 'events_fewer_merges_of_small_inserts',
    statements: (target) => modifySettingStatements(EVENTS.name, EVENTS_MERGE_SETTINGS, target),
  },
  {
    version: 11,
    name: 'rollups_small_granules',
    // The daily tables as migrations 3 and 5 left them (the bound last), the windows as 6 and 7 did.
    statements: (target) => [
      ...FIRST_DAILY_ROLLUPS.flatMap((def) =>
        rebuildTableStatements({ ...def, columns: [...def.columns, VISITOR_BOUND_COLUMN], settings: ROLLUP_GRANULES }, target, ROLLUP_COPY_SETTINGS),
      ),
      ...FIRST_WINDOW_ROLLUPS.flatMap((def) =>
        rebuildTableStatements({ ...def, settings: `${WINDOW_MERGE_SETTINGS}, ${ROLLUP_GRANULES}` }, target, ROLLUP_COPY_SETTINGS),
      ),
    ],
  },
  {
    version: 12,
    name: 'rollup_event_totals',
    // The day and week rows of every site merged across event names from daily_custom_events, each
    // row's bound its own visitors (dailyRollups.ts EVENT_TOTALS). Its windows are merged by the
    // job's next round: the coverage forgets the windows published without it.
    statements: (target) => [
      ...addedRollupStatements(EVENT_TOTALS, EVENT_TOTALS_FILL, target),
      ...fillColumnStatements(ROLLUP_COVERAGE.name, 'windows_computed = 0', target),
    ],
  },
  {
    version: 13,
    name: 'rollup_runs_from',
    // Runs of two and four weeks (dailyRollups.ts RUN_WEEKS) are stored from the day a coverage row
    // names on; a site rolled up before them has them from the day after its last day rolled up.
    statements: (target) => addColumnStatements(ROLLUP_COVERAGE.name, COVERAGE_RUNS_COLUMN, target),
  },
  {
    version: 14,
    name: 'rollups_by_one_key',
    // The narrow tables (dailyRollups.ts NARROW_TABLES), each filled from its wider table's day, week
    // and run rows, the copy made before the table takes its name as in migration 12. Their windows
    // are merged by the job's next round: the coverage forgets the windows published without them.
    statements: (target) => [
      ...NARROW_TABLES.flatMap((table) => addedRollupStatements(table, narrowedSelect(table, '1'), target)),
      ...fillColumnStatements(ROLLUP_COVERAGE.name, 'windows_computed = 0', target),
    ],
  },
  {
    version: 15,
    name: 'rollup_blocks',
    // Runs of eight and sixteen weeks and each week's first and last days (dailyRollups.ts
    // RUN_WEEKS, EDGE_DAYS) are stored by the job from now on, under the same coverage day as the
    // runs of two and four weeks: a site rolled up before them has every block from the day after
    // its last day rolled up, and reads days and weeks before it.
    statements: (target) => fillColumnStatements(ROLLUP_COVERAGE.name, 'runs_from = addDays(through, 1)', target),
  },
  {
    version: 16,
    name: 'window_rollups_day_so_far_ttl',
    // The rows of a day so far (daySoFar.ts) go two days after they were merged, as the table merges.
    statements: (target) => ROLLUP_TABLES.flatMap((table) => modifyTtlStatements(windowTableName(table), DAY_SO_FAR_TTL, target)),
  },
];

/**
 * A roll-up table added after migration 3 (the bound and small granules its tables have by then),
 * filled from `fill` in a copy that takes its name once made, and its window table.
 */
function addedRollupStatements(table: RollupTable, fill: string, target: DdlTarget): string[] {
  const def = dailyRollupDef(table);
  const daily = { ...def, columns: [...def.columns, VISITOR_BOUND_COLUMN], settings: ROLLUP_GRANULES };
  return [
    ...createTableStatements(daily, target),
    ...rebuildTableStatements(daily, target, `${ROLLUP_COPY_SETTINGS}, optimize_aggregation_in_order = 1`, fill),
    ...createTableStatements({ ...windowRollupDef(table), settings: `${WINDOW_MERGE_SETTINGS}, ${ROLLUP_GRANULES}` }, target),
  ];
}

/**
 * Migration 12's rows: the event names of each site, day (or week) and classification merged, in
 * the order daily_custom_events is stored, so the merge holds one group at a time.
 */
const EVENT_TOTALS_FILL = `SELECT site_id, days, day, classification, uniqMergeState(day_visitors) AS visitors, uniqMergeState(day_visits) AS visits,
  CAST(sum(day_pageviews) AS SimpleAggregateFunction(sum, UInt64)) AS pageviews, CAST(sum(day_events) AS SimpleAggregateFunction(sum, UInt64)) AS events,
  CAST(uniqMerge(day_visitors) AS SimpleAggregateFunction(sum, UInt64)) AS visitor_bound
FROM (SELECT site_id, days, day, classification, visitors AS day_visitors, visits AS day_visits, pageviews AS day_pageviews, events AS day_events
  FROM ${rollupTableName(FIRST_ROLLUP_TABLES.find((table) => table.name === 'custom_events')!)})
GROUP BY site_id, days, day, classification`;

/**
 * Copying roll-up rows a few at a time, on one thread: a block of the default 65,536 rows of a
 * busy site's window rows would hold gigabytes of visitor sets (rollupWindows.ts
 * WINDOW_MERGE_SETTINGS). On a cluster the copy is sent to the shards before the statement ends.
 */
const ROLLUP_COPY_SETTINGS = 'max_threads = 1, max_insert_threads = 1, max_block_size = 16, distributed_foreground_insert = 1';

function ledgerStatement(target: DdlTarget): string {
  const onCluster = target.cluster ? ` ON CLUSTER ${target.cluster}` : '';
  const engine = target.cluster ? "ReplicatedMergeTree('/clickhouse/tables/{database}/schema_migrations', '{replica}')" : 'MergeTree';
  return `CREATE TABLE IF NOT EXISTS schema_migrations${onCluster} (version UInt32, name String, applied_at DateTime('UTC')) ENGINE = ${engine} ORDER BY version`;
}

/**
 * Runs the migrations a caller leased (src/stores/meta/leases.ts `clickhouse-migrations`), so two
 * nodes starting together never both apply them: the lease holder runs `work`, the others wait.
 */
export type MigrationGuard = <T>(work: () => Promise<T>) => Promise<T>;

async function ledgerVersion(client: ClickHouseClient): Promise<number> {
  const result = await client.query({ query: 'SELECT max(version) AS v FROM schema_migrations', format: 'JSONEachRow' });
  const [row] = await result.json<{ v: number | string }>();
  return Number(row?.v ?? 0);
}

/**
 * Applies every migration newer than the ledger's last entry; returns the versions applied. With
 * a guard, a store already up to date is left at once, and pending migrations run inside the
 * guard, which reads the ledger again: a node that waited for another's migrations applies none.
 */
export async function migrateEvents(client: ClickHouseClient, target: DdlTarget, now: number, guard?: MigrationGuard): Promise<number[]> {
  await client.command({ query: ledgerStatement(target) });
  const latest = EVENT_MIGRATIONS.at(-1)?.version ?? 0;
  if (guard && (await ledgerVersion(client)) >= latest) return [];
  const apply = async () => {
    const current = await ledgerVersion(client);
    const applied: number[] = [];
    for (const migration of EVENT_MIGRATIONS) {
      if (migration.version <= current) continue;
      for (const statement of migration.statements(target)) await client.command({ query: statement });
      await client.insert({
        table: 'schema_migrations',
        values: [{ version: migration.version, name: migration.name, applied_at: Math.floor(now / 1000) }],
        format: 'JSONEachRow',
      });
      applied.push(migration.version);
    }
    return applied;
  };
  return guard ? guard(apply) : apply();
}
