import type { ClickHouseClient } from '@clickhouse/client';
import type { SessionTracker } from './liveVisits/index.js';
import { type LiveVisit, LONGEST_VISIT_MS, SESSION_TIMEOUT_MS, visitFromRow } from './liveVisits/index.js';
import { SESSION_COLUMNS, type SessionRow } from './rows.js';

/** Rows per read at start: a page at a time, so a million live visits never sit in memory as objects at once. */
const RESTORE_PAGE = 20_000;

const asEpoch = (clickhouseTime: string) => Date.parse(`${clickhouseTime.replace(' ', 'T')}Z`);
const COLUMNS = SESSION_COLUMNS.join(', ');

/**
 * Visits still live at `now` (active within the last 30 minutes) in their latest state, so that
 * after a restart a returning visitor continues their visit instead of starting a second one.
 * Read oldest activity first: past the tracker's cap the oldest leave memory again as evicted
 * visits, to be read back (readBackVisits) if their visitor returns.
 */
export async function restoreLiveVisits(client: ClickHouseClient, tracker: Pick<SessionTracker, 'restore'>, now: number): Promise<number> {
  let restored = 0;
  let after = { timestamp: 0, sessionId: '0' };
  for (;;) {
    const result = await client.query({
      query: `SELECT ${COLUMNS} FROM sessions FINAL
              WHERE sign = 1 AND start >= toDateTime({since:UInt32}, 'UTC') AND timestamp >= toDateTime({active:UInt32}, 'UTC')
                AND (timestamp, session_id) > (toDateTime({after:UInt32}, 'UTC'), {afterSession:UInt64})
              ORDER BY timestamp, session_id LIMIT {page:UInt32}
              SETTINGS max_execution_time = 60`,
      query_params: {
        since: Math.floor((now - LONGEST_VISIT_MS) / 1000),
        active: Math.floor((now - SESSION_TIMEOUT_MS) / 1000),
        after: after.timestamp,
        afterSession: after.sessionId,
        page: RESTORE_PAGE,
      },
      format: 'JSONEachRow',
    });
    const rows = await result.json<SessionRow>();
    for (const row of rows) tracker.restore({ ...row, site_id: Number(row.site_id) }, asEpoch(row.start), asEpoch(row.timestamp));
    restored += rows.length;
    const last = rows.at(-1);
    if (!last || rows.length < RESTORE_PAGE) return restored;
    after = { timestamp: asEpoch(last.timestamp) / 1000, sessionId: last.session_id };
  }
}

/**
 * The latest stored visit of each of these visitors, for visits that left memory
 * (src/ingest/liveVisits/tracker.ts), asked for together in one read. A visit's last activity is
 * its row's time or, if later, its last engagement's: an engagement keeps a visit alive without
 * writing a visit row (every other event writes one). Reading engagements alone follows the
 * order of `events` (site, day, name, visitor), so the read stays small.
 */
export async function readBackVisits(
  client: ClickHouseClient,
  visitors: ReadonlyArray<{ siteId: number; userIds: string[] }>,
  sinceMs: number,
): Promise<LiveVisit[]> {
  const since = Math.max(0, Math.floor(sinceMs / 1000));
  const sites = [...new Set(visitors.map((v) => v.siteId))];
  const users = [...new Set(visitors.flatMap((v) => v.userIds))];
  const result = await client.query({
    query: `SELECT ${COLUMNS} FROM sessions FINAL
            WHERE site_id IN {sites:Array(UInt64)} AND user_id IN {users:Array(UInt64)} AND sign = 1 AND start >= toDateTime({since:UInt32}, 'UTC')
            ORDER BY timestamp DESC LIMIT 1 BY site_id, user_id
            SETTINGS max_execution_time = 10`,
    query_params: { sites, users, since },
    format: 'JSONEachRow',
  });
  const rows = await result.json<SessionRow>();
  if (rows.length === 0) return [];
  const seen = await client.query({
    query: `SELECT toString(session_id) AS session_id, toUInt32(max(timestamp)) AS last FROM events
            WHERE site_id IN {sites:Array(UInt64)} AND timestamp >= toDateTime({since:UInt32}, 'UTC') AND name = 'engagement'
              AND user_id IN {users:Array(UInt64)} AND session_id IN {sessions:Array(UInt64)}
            GROUP BY session_id
            SETTINGS max_execution_time = 10`,
    query_params: { sites, users, sessions: rows.map((r) => r.session_id), since },
    format: 'JSONEachRow',
  });
  const lastEvent = new Map((await seen.json<{ session_id: string; last: number }>()).map((r) => [r.session_id, Number(r.last)]));
  return rows.map((row) => visitFromRow({ ...row, site_id: Number(row.site_id) }, lastEvent.get(String(row.session_id)) ?? 0));
}
