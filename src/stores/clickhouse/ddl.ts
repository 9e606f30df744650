/**
 * Table definitions rendered for one node (embedded chDB or a single server) or for a cluster,
 * where each table becomes a Replicated `<name>_local` on every node plus a Distributed `<name>`
 * in front of it. Pure: the same definition yields both, so the two never drift apart.
 */
export interface TableDef {
  name: string;
  columns: string[];
  engine: 'MergeTree' | 'SummingMergeTree' | 'ReplacingMergeTree' | 'VersionedCollapsingMergeTree' | 'AggregatingMergeTree';
  engineArgs?: string;
  partitionBy?: string;
  orderBy: string;
  sampleBy?: string;
  /** How rows spread over shards; all rows of a visitor land together so sessions collapse. */
  shardingKey: string;
  settings?: string;
}

export interface DdlTarget {
  cluster: string | null;
}

const TABLE_SETTINGS = 'index_granularity = 8192, old_parts_lifetime = 30';

export function createTableStatements(def: TableDef, target: DdlTarget): string[] {
  const columns = def.columns.map((c) => `  ${c}`).join(',\n');
  const clauses = [
    def.partitionBy ? `PARTITION BY ${def.partitionBy}` : '',
    `ORDER BY ${def.orderBy}`,
    def.sampleBy ? `SAMPLE BY ${def.sampleBy}` : '',
    `SETTINGS ${def.settings ? `${def.settings}, ` : ''}${TABLE_SETTINGS}`,
  ]
    .filter(Boolean)
    .join('\n');
  if (target.cluster === null) {
    return [`CREATE TABLE IF NOT EXISTS ${def.name}\n(\n${columns}\n)\nENGINE = ${def.engine}(${def.engineArgs ?? ''})\n${clauses}`];
  }
  const local = `${def.name}_local`;
  const replicatedArgs = [`'/clickhouse/tables/{shard}/{database}/${local}'`, `'{replica}'`, ...(def.engineArgs ? [def.engineArgs] : [])].join(', ');
  return [
    `CREATE TABLE IF NOT EXISTS ${local} ON CLUSTER ${target.cluster}\n(\n${columns}\n)\nENGINE = Replicated${def.engine}(${replicatedArgs})\n${clauses}`,
    `CREATE TABLE IF NOT EXISTS ${def.name} ON CLUSTER ${target.cluster} AS ${local}\nENGINE = Distributed(${target.cluster}, currentDatabase(), ${local}, ${def.shardingKey})`,
  ];
}

/**
 * Recreates a table under a definition it cannot take in place (a granule size is fixed when a
 * table is made) and moves its rows over: copied into a new table, which then takes the old one's
 * name, and the old one dropped. Each step can run again after a crash between any two: a copy
 * left over is dropped first, and the rows are never in two tables by the name. `copy` holds the
 * copy's query settings; `source`, a SELECT of the table's columns, fills the new table instead of
 * the old one's rows. Rows written into the table during the copy would stay behind, so nothing
 * else may write it meanwhile (the migrations run under a lease before a node's jobs start).
 */
export function rebuildTableStatements(def: TableDef, target: DdlTarget, copy: string, source?: string): string[] {
  const rebuilt: TableDef = { ...def, name: `${def.name}_rebuilt` };
  const names = def.columns.map((column) => column.split(' ')[0]).join(', ');
  const onCluster = target.cluster === null ? '' : ` ON CLUSTER ${target.cluster}`;
  // On a cluster the rows live in the Replicated `_local` tables, behind a Distributed one of the name.
  const local = (name: string) => (target.cluster === null ? name : `${name}_local`);
  const drop = [...new Set([rebuilt.name, local(rebuilt.name)])].map((name) => `DROP TABLE IF EXISTS ${name}${onCluster} SYNC`);
  return [
    ...drop,
    ...createTableStatements(rebuilt, target),
    `INSERT INTO ${rebuilt.name} (${names}) SELECT ${names} FROM ${source === undefined ? def.name : `(${source})`} SETTINGS ${copy}`,
    `EXCHANGE TABLES ${local(def.name)} AND ${local(rebuilt.name)}${onCluster}`,
    ...drop,
  ];
}

/** Adds a column to a table; on a cluster to the Replicated `_local` tables and the Distributed one in front. */
export const addColumnStatements = (table: string, column: string, target: DdlTarget) => alterStatements(table, `ADD COLUMN IF NOT EXISTS ${column}`, target);

/** Changes a column's type (its codec stays); the rows are rewritten in the statement, before the next migration. */
export const modifyColumnStatements = (table: string, column: string, target: DdlTarget) =>
  alterStatements(table, `MODIFY COLUMN ${column}`, target).map((statement) => `${statement} SETTINGS mutations_sync = 2`);

/** Changes a table's MergeTree settings: on a cluster those of the Replicated `_local` tables (a Distributed table has none). */
export function modifySettingStatements(table: string, settings: string, target: DdlTarget): string[] {
  const local = target.cluster === null ? table : `${table}_local ON CLUSTER ${target.cluster}`;
  return [`ALTER TABLE ${local} MODIFY SETTING ${settings}`];
}

/**
 * Sets a table's TTL without applying it to the parts stored (`materialize_ttl_after_modify` off):
 * it applies as they merge. On a cluster to the Replicated `_local` tables.
 */
export function modifyTtlStatements(table: string, ttl: string, target: DdlTarget): string[] {
  const local = target.cluster === null ? table : `${table}_local ON CLUSTER ${target.cluster}`;
  return [`ALTER TABLE ${local} MODIFY TTL ${ttl} SETTINGS materialize_ttl_after_modify = 0`];
}

/**
 * Sets a column on every stored row (the Replicated `_local` tables on a cluster: a Distributed
 * table holds none), waiting for the rows to be rewritten.
 */
export function fillColumnStatements(table: string, assignment: string, target: DdlTarget): string[] {
  const local = target.cluster === null ? table : `${table}_local ON CLUSTER ${target.cluster}`;
  return [`ALTER TABLE ${local} UPDATE ${assignment} WHERE 1 SETTINGS mutations_sync = 2`];
}

function alterStatements(table: string, change: string, target: DdlTarget): string[] {
  if (target.cluster === null) return [`ALTER TABLE ${table} ${change}`];
  return [`ALTER TABLE ${table}_local ON CLUSTER ${target.cluster} ${change}`, `ALTER TABLE ${table} ON CLUSTER ${target.cluster} ${change}`];
}
