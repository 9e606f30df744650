import type { ClickHouseClient } from '@clickhouse/client';
import { columnNames, EVENT_COLUMN_TABLE, type RowOf, SESSION_COLUMN_TABLE } from './columns.js';
import type { EventStore } from './eventStore.js';

/** A `sessions` row as stored. */
export type StoredVisitRow = RowOf<typeof SESSION_COLUMN_TABLE>;

/** One ingestion health count: a row of `ingest_counters`. */
export interface CounterRow {
  hour: string;
  site_id: number;
  reason: string;
  value: number;
}

/** The tables whose rows collection encodes itself, as JSONCompactEachRow lines in the column table's order. */
export type EncodedTable = 'events' | 'sessions';

const ENCODED_COLUMNS: Record<EncodedTable, [string, ...string[]]> = {
  events: columnNames(EVENT_COLUMN_TABLE) as [string, ...string[]],
  sessions: columnNames(SESSION_COLUMN_TABLE) as [string, ...string[]],
};
const VISIT_COLUMNS = ENCODED_COLUMNS.sessions.join(', ');

/**
 * What collection (src/ingest/) writes to and reads from the event store, so that it knows
 * nothing of the client's API. Every insert carries the deduplication token its caller names
 * (src/ingest/journal.ts insertToken), so a batch sent again is stored once.
 */
export interface IngestionStore {
  /** Encoded `events` or `sessions` rows (src/ingest/rows.ts encodeRow). */
  insertRows(table: EncodedTable, lines: readonly string[], token: string): Promise<void>;
  insertCounts(rows: readonly CounterRow[], token: string): Promise<void>;
  /**
   * One page of the visits started since `startedSince` and active since `activeSince` (epoch ms),
   * each in its latest state, by last activity then visit id, after the cursor's visit.
   */
  liveVisitsPage(page: {
    startedSince: number;
    activeSince: number;
    after: { timestamp: number; sessionId: string };
    limit: number;
  }): Promise<StoredVisitRow[]>;
  /**
   * The latest stored visit of each of these visitors started since `since` (epoch ms), with the
   * epoch second of its last engagement (0 for none).
   */
  latestVisits(visitors: ReadonlyArray<{ siteId: number; userIds: string[] }>, since: number): Promise<Array<{ row: StoredVisitRow; lastEngagement: number }>>;
  /** Idempotency keys of events since `since` (epoch ms), each with its first event's time (epoch ms), latest first, at most `max`. */
  idempotencyKeys(since: number, max: number): Promise<Array<{ siteId: number; key: string; first: number }>>;
}

const seconds = (epochMs: number) => Math.floor(epochMs / 1000);

/**
 * Writes, and the read-back of visits that left memory (which follows a flush), go through the
 * ingestion connection; the reads at start-up through the jobs' connection.
 */
export function ingestionStore(events: Pick<EventStore, 'ingest' | 'jobs'>): IngestionStore {
  const writes: ClickHouseClient = events.ingest;
  return {
    async insertRows(table, lines, token) {
      // The lines are already JSON; the event store's client passes strings through unchanged.
      await writes.insert({
        table,
        values: lines,
        format: 'JSONCompactEachRow',
        columns: ENCODED_COLUMNS[table],
        clickhouse_settings: { insert_deduplication_token: token },
      });
    },
    async insertCounts(rows, token) {
      await writes.insert({ table: 'ingest_counters', values: rows, format: 'JSONEachRow', clickhouse_settings: { insert_deduplication_token: token } });
    },
    async liveVisitsPage({ startedSince, activeSince, after, limit }) {
      const result = await events.jobs.query({
        query: `SELECT ${VISIT_COLUMNS} FROM sessions FINAL
                WHERE sign = 1 AND start >= toDateTime({since:UInt32}, 'UTC') AND timestamp >= toDateTime({active:UInt32}, 'UTC')
                  AND (timestamp, session_id) > (toDateTime({after:UInt32}, 'UTC'), {afterSession:UInt64})
                ORDER BY timestamp, session_id LIMIT {page:UInt32}
                SETTINGS max_execution_time = 60`,
        query_params: {
          since: seconds(startedSince),
          active: seconds(activeSince),
          after: seconds(after.timestamp),
          afterSession: after.sessionId,
          page: limit,
        },
        format: 'JSONEachRow',
      });
      return visitRows(await result.json<StoredVisitRow>());
    },
    async latestVisits(visitors, sinceMs) {
      const since = Math.max(0, seconds(sinceMs));
      const sites = [...new Set(visitors.map((v) => v.siteId))];
      const users = [...new Set(visitors.flatMap((v) => v.userIds))];
      const result = await writes.query({
        query: `SELECT ${VISIT_COLUMNS} FROM sessions FINAL
                WHERE site_id IN {sites:Array(UInt64)} AND user_id IN {users:Array(UInt64)} AND sign = 1 AND start >= toDateTime({since:UInt32}, 'UTC')
                ORDER BY timestamp DESC LIMIT 1 BY site_id, user_id
                SETTINGS max_execution_time = 10`,
        query_params: { sites, users, since },
        format: 'JSONEachRow',
      });
      const rows = visitRows(await result.json<StoredVisitRow>());
      if (rows.length === 0) return [];
      // A visit's last activity is its row's time or, if later, its last engagement's: an
      // engagement keeps a visit alive without writing a visit row (every other event writes one).
      // Reading engagements alone follows the order of `events` (site, day, name, visitor), so the read stays small.
      const seen = await writes.query({
        query: `SELECT toString(session_id) AS session_id, toUInt32(max(timestamp)) AS last FROM events
                WHERE site_id IN {sites:Array(UInt64)} AND timestamp >= toDateTime({since:UInt32}, 'UTC') AND name = 'engagement'
                  AND user_id IN {users:Array(UInt64)} AND session_id IN {sessions:Array(UInt64)}
                GROUP BY session_id
                SETTINGS max_execution_time = 10`,
        query_params: { sites, users, sessions: rows.map((r) => r.session_id), since },
        format: 'JSONEachRow',
      });
      const lastEvent = new Map((await seen.json<{ session_id: string; last: number }>()).map((r) => [r.session_id, Number(r.last)]));
      return rows.map((row) => ({ row, lastEngagement: lastEvent.get(String(row.session_id)) ?? 0 }));
    },
    async idempotencyKeys(since, max) {
      const result = await events.jobs.query({
        query: `SELECT site_id, idempotency_key AS key, toUnixTimestamp(min(timestamp)) AS first
                FROM events
                WHERE timestamp >= toDateTime({since:UInt32}, 'UTC') AND idempotency_key != ''
                GROUP BY site_id, idempotency_key
                ORDER BY first DESC
                LIMIT {max:UInt32}
                SETTINGS max_execution_time = 60`,
        query_params: { since: seconds(since), max },
        format: 'JSONEachRow',
      });
      const rows = await result.json<{ site_id: string; key: string; first: number | string }>();
      return rows.map((row) => ({ siteId: Number(row.site_id), key: row.key, first: Number(row.first) * 1000 }));
    },
  };
}

/** 64-bit integers come back as strings (src/stores/clickhouse/eventStore.ts); a site id is a number. */
function visitRows(rows: StoredVisitRow[]): StoredVisitRow[] {
  return rows.map((row) => ({ ...row, site_id: Number(row.site_id) }));
}
