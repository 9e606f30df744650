import type { ClickHouseClient } from '@clickhouse/client';
import { IDEMPOTENCY_WINDOW_MS, type IdempotencyKeys, MAX_IDEMPOTENCY_KEYS } from './idempotency.js';

/**
 * The idempotency keys of events stored in the last 24 hours, so that a retry arriving after a
 * restart is still recognised. A key whose event was lost with a crash is not found, and the retry
 * is stored: the key then protects exactly what was kept.
 */
export async function restoreIdempotencyKeys(client: ClickHouseClient, keys: IdempotencyKeys, now: number): Promise<number> {
  const result = await client.query({
    query: `SELECT site_id, idempotency_key AS key, toUnixTimestamp(min(timestamp)) AS first
            FROM events
            WHERE timestamp >= toDateTime({since:UInt32}, 'UTC') AND idempotency_key != ''
            GROUP BY site_id, idempotency_key
            ORDER BY first DESC
            LIMIT {max:UInt32}
            SETTINGS max_execution_time = 60`,
    query_params: { since: Math.floor((now - IDEMPOTENCY_WINDOW_MS) / 1000), max: MAX_IDEMPOTENCY_KEYS },
    format: 'JSONEachRow',
  });
  const rows = await result.json<{ site_id: string; key: string; first: number | string }>();
  // Oldest first, so the most recent keys are the last the bounded cache would forget.
  for (const row of rows.reverse()) keys.remember(Number(row.site_id), row.key, Number(row.first) * 1000);
  return rows.length;
}
