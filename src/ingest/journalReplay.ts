import type { CounterRow, IngestionStore } from '../stores/clickhouse/ingestionStore.js';
import { insertToken, JOURNAL_TABLES, type JournalReplay, type JournalTable, readJournals } from './journal.js';
import type { HeldEngagement } from './orphans.js';

/** Rows per insert when replaying; the batch a crash interrupted keeps its own size and token. */
const REPLAY_CHUNK = 10_000;

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
export async function replayJournals(dir: string, store: Pick<IngestionStore, 'insertRows' | 'insertCounts'>): Promise<ReplayResult> {
  const result: ReplayResult = { rows: { events: 0, sessions: 0, ingest_counters: 0 }, held: [], segments: [] };
  for (const replay of readJournals(dir)) {
    for (const table of JOURNAL_TABLES) result.rows[table] += await replayTable(store, replay, table);
    result.held.push(...(replay.held as HeldEngagement[]));
    result.segments.push(...replay.segments);
  }
  return result;
}

async function replayTable(store: Pick<IngestionStore, 'insertRows' | 'insertCounts'>, replay: JournalReplay, table: JournalTable): Promise<number> {
  const { firstSeq, lines, begun } = replay.tables[table];
  let written = 0;
  for (let offset = 0; offset < lines.length; ) {
    const seq = firstSeq + offset;
    const count = begun?.seq === seq ? begun.count : Math.min(REPLAY_CHUNK, lines.length - offset);
    const batch = lines.slice(offset, offset + count);
    const token = insertToken(replay.journalId, table, seq, count);
    if (table === 'ingest_counters') {
      const rows = batch.flatMap((line) => JSON.parse(line) as CounterRow[]);
      await store.insertCounts(rows, token);
      written += rows.length;
    } else {
      await store.insertRows(table, batch, token);
      written += batch.length;
    }
    offset += count;
  }
  return written;
}
