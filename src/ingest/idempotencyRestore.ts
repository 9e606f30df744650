import type { IngestionStore } from '../stores/clickhouse/ingestionStore.js';
import { IDEMPOTENCY_WINDOW_MS, type IdempotencyKeys, MAX_IDEMPOTENCY_KEYS } from './idempotency.js';

/**
 * The idempotency keys of events stored in the last 24 hours, so that a retry arriving after a
 * restart is still recognised. A key whose event was lost with a crash is not found, and the retry
 * is stored: the key then protects exactly what was kept.
 */
export async function restoreIdempotencyKeys(store: Pick<IngestionStore, 'idempotencyKeys'>, keys: IdempotencyKeys, now: number): Promise<number> {
  const rows = await store.idempotencyKeys(now - IDEMPOTENCY_WINDOW_MS, MAX_IDEMPOTENCY_KEYS);
  // Oldest first, so the most recent keys are the last the bounded cache would forget.
  for (const row of rows.reverse()) keys.remember(row.siteId, row.key, row.first);
  return rows.length;
}
