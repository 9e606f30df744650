/**
 * `ALTER TABLE … DELETE` for rows matching a parameterised condition. On a cluster the rows live
 * in the Replicated `_local` tables (the Distributed ones hold none); mutations_sync = 2 waits for
 * every replica, so "deleted" means gone, not merely scheduled.
 */
export function deleteStatement(table: string, cluster: string | null, condition: string): string {
  const target = cluster ? `${table}_local ON CLUSTER ${cluster}` : table;
  return `ALTER TABLE ${target} DELETE WHERE ${condition} SETTINGS mutations_sync = 2`;
}
