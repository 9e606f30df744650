import type { CounterRow } from '../stores/clickhouse/ingestionStore.js';
import { clickhouseTime } from './rows.js';

const HOUR = 3_600_000;

/**
 * Ingestion health per site, hour and outcome (accepted, each drop reason, each classification,
 * truncations, duplicates), summed in memory and written with the next flush.
 */
export class HealthCounters {
  private pending = new Map<string, CounterRow>();
  /** Counts not yet in the journal, when the write buffer journals them (src/ingest/journal.ts). */
  private delta: Map<string, CounterRow> | null = null;

  count(siteId: number, at: number, reason: string, value = 1): void {
    const hour = Math.floor(at / HOUR) * HOUR;
    const id = `${siteId}|${hour}|${reason}`;
    add(this.pending, id, siteId, hour, reason, value);
    if (this.delta) add(this.delta, id, siteId, hour, reason, value);
  }

  /** From now on counts are also kept apart until `takeDelta` hands them to the journal. */
  trackDelta(): void {
    this.delta ??= new Map();
  }

  takeDelta(): CounterRow[] {
    if (!this.delta || this.delta.size === 0) return [];
    const rows = [...this.delta.values()];
    this.delta.clear();
    return rows;
  }

  drain(): CounterRow[] {
    const rows = [...this.pending.values()];
    this.pending.clear();
    return rows;
  }
}

function add(rows: Map<string, CounterRow>, id: string, siteId: number, hour: number, reason: string, value: number): void {
  const row = rows.get(id);
  if (row) row.value += value;
  else rows.set(id, { hour: clickhouseTime(hour), site_id: siteId, reason, value });
}
