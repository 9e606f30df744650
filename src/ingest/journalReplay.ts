import type { ClickHouseClient } from '@clickhouse/client';
import type { CounterRow } from './healthCounters.js';
import { insertToken, JOURNAL_TABLES, type JournalReplay, type JournalTable, readJournals } from './journal.js';
import type { HeldEngagement } from './orphans.js';
import { EVENT_COLUMNS, SESSION_COLUMNS } from './rows.js';

/** Rows per insert when replaying; the batch a crash interrupted keeps its own size and token. */
const REPLAY_CHUNK = 10_000;

const COLUMNS: Record<Exclude<JournalTable, 'ingest_counters'>, readonly string[]> = { events: EVENT_COLUMNS, sessions: SESSION_COLUMNS };

export interface ReplayResult {
  /** Rows written per table (a batch the store already had counts too: it deduplicates it). */
  rows: Record<JournalTable, number>;
  held: HeldEngagement[];
  /** Segments replayed; the new journal deletes them once its own first segment is on disk. */
  segments: string[];
}

/**
 * Writes what earlier processes journaled and the store never confirmed. Batches are cut the same
 * way on every attempt and carry tokens naming their journal rows, so a batch that did reach the
 * store before the crash, or a replay interrupted by another crash, is not stored twice.
 */
export async function replayJournals(dir: string, client: ClickHouseClient): Promise<ReplayResult> {
  const result: ReplayResult = { rows: { events: 0, sessions: 0, ingest_counters: 0 }, held: [], segments: [] };
  for (const replay of readJournals(dir)) {
    for (const table of JOURNAL_TABLES) result.rows[table] += await replayTable(client, replay, table);
    result.held.push(...(replay.held as HeldEngagement[]));
    result.segments.push(...replay.segments);
  }
  return result;
}

async function replayTable(client: ClickHouseClient, replay: JournalReplay, table: JournalTable): Promise<number> {
  const { firstSeq, lines, begun } = replay.tables[table];
  let written = 0;
  for (let offset = 0; offset < lines.length; ) {
    const seq = firstSeq + offset;
    const count = begun?.seq === seq ? begun.count : Math.min(REPLAY_CHUNK, lines.length - offset);
    const batch = lines.slice(offset, offset + count);
    const clickhouse_settings = { insert_deduplication_token: insertToken(replay.journalId, table, seq, count) };
    if (table === 'ingest_counters') {
      const rows = batch.flatMap((line) => JSON.parse(line) as CounterRow[]);
      await client.insert({ table, values: rows, format: 'JSONEachRow', clickhouse_settings });
      written += rows.length;
    } else {
      await client.insert({ table, values: batch, format: 'JSONCompactEachRow', columns: [...COLUMNS[table]] as [string, ...string[]], clickhouse_settings });
      written += batch.length;
    }
    offset += count;
  }
  return written;
}
