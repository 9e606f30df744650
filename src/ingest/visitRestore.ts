import type { ClickHouseClient } from '@clickhouse/client';
import { SESSION_COLUMNS, type SessionRow } from './rows.js';
import { SESSION_TIMEOUT_MS, type SessionTracker } from './sessions.js';

/** Visits longer than this are not looked for; the bound keeps the start-up scan to recent partitions. */
const LONGEST_VISIT_MS = 24 * 3_600_000;

const asEpoch = (clickhouseTime: string) => Date.parse(`${clickhouseTime.replace(' ', 'T')}Z`);

/**
 * Visits still live at `now` (active within the last 30 minutes) in their latest state, so that
 * after a restart a returning visitor continues their visit instead of starting a second one.
 */
export async function restoreLiveVisits(client: ClickHouseClient, tracker: SessionTracker, now: number): Promise<number> {
  const result = await client.query({
    query: `SELECT ${SESSION_COLUMNS.join(', ')} FROM sessions FINAL
            WHERE sign = 1 AND start >= toDateTime({since:UInt32}, 'UTC') AND timestamp >= toDateTime({active:UInt32}, 'UTC')
            SETTINGS max_execution_time = 60`,
    query_params: { since: Math.floor((now - LONGEST_VISIT_MS) / 1000), active: Math.floor((now - SESSION_TIMEOUT_MS) / 1000) },
    format: 'JSONEachRow',
  });
  const rows = await result.json<SessionRow>();
  for (const row of rows) tracker.restore({ ...row, site_id: Number(row.site_id) }, asEpoch(row.start), asEpoch(row.timestamp));
  return rows.length;
}
