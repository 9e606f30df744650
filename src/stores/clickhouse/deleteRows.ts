import type { ClickHouseClient } from '@clickhouse/client';
import { select } from './select.js';

/**
 * `ALTER TABLE … DELETE` for rows matching a parameterised condition. On a cluster the rows live
 * in the Replicated `_local` tables (the Distributed ones hold none); mutations_sync = 2 waits for
 * every replica, so "deleted" means gone, not merely scheduled.
 */
export function deleteStatement(table: string, cluster: string | null, condition: string): string {
  const target = cluster ? `${table}_local ON CLUSTER ${cluster}` : table;
  return `ALTER TABLE ${target} DELETE WHERE ${condition} SETTINGS mutations_sync = 2`;
}

/** One table's rows to delete: those matching a parameterised condition. */
export interface RowsToDelete {
  table: string;
  condition: string;
}

/** How often a wait for mutations looks again. */
const MUTATION_POLL_MS = 20;

/**
 * Deletes rows of several tables and returns once they are gone. On one node the mutations are
 * sent together and waited for together: the embedded engine runs a mutation part by part in its
 * small background pool (src/stores/clickhouse/eventStore.ts embeddedEngineArgs), slowly where
 * tables hold many small parts, so waiting for each in turn would add up the waits of every table
 * (docs/benchmarks.md). On a cluster each waits for
 * every replica in turn.
 */
export async function deleteRows(client: ClickHouseClient, cluster: string | null, deletes: RowsToDelete[], params: Record<string, unknown>): Promise<void> {
  if (cluster) {
    for (const { table, condition } of deletes) await client.command({ query: deleteStatement(table, cluster, condition), query_params: params });
    return;
  }
  const [started] = await select<{ at: string }>(client, 'SELECT toString(now()) AS at');
  for (const { table, condition } of deletes) {
    await client.command({ query: `ALTER TABLE ${table} DELETE WHERE ${condition} SETTINGS mutations_sync = 0`, query_params: params });
  }
  const tables = deletes.map((d) => d.table);
  for (;;) {
    // Mutations of these tables begun since (other deletions of the same second wait with them).
    const [left] = await select<{ pending: string; failure: string }>(
      client,
      `SELECT count() AS pending, anyIf(latest_fail_reason, latest_fail_reason != '') AS failure FROM system.mutations
       WHERE database = currentDatabase() AND table IN {tables:Array(String)} AND create_time >= toDateTime({started:String}) AND NOT is_done`,
      { tables, started: started!.at },
    );
    if (Number(left?.pending ?? 0) === 0) return;
    // As mutations_sync does: a failing mutation fails the wait (the engine retries it meanwhile).
    if (left?.failure) throw new Error(`Deleting rows failed: ${left.failure}`);
    await new Promise((resolve) => setTimeout(resolve, MUTATION_POLL_MS));
  }
}
