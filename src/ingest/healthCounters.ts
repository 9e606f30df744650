import { clickhouseTime } from './rows.js';

const HOUR = 3_600_000;

export interface CounterRow {
  hour: string;
  site_id: number;
  reason: string;
  value: number;
}

/**
 * Ingestion health per site, hour and outcome (accepted, each drop reason, each classification,
 * truncations, duplicates), summed in memory and written with the next flush.
 */
export class HealthCounters {
  private pending = new Map<string, CounterRow>();

  count(siteId: number, at: number, reason: string, value = 1): void {
    const hour = Math.floor(at / HOUR) * HOUR;
    const id = `${siteId}|${hour}|${reason}`;
    const row = this.pending.get(id);
    if (row) row.value += value;
    else this.pending.set(id, { hour: clickhouseTime(hour), site_id: siteId, reason, value });
  }

  drain(): CounterRow[] {
    const rows = [...this.pending.values()];
    this.pending.clear();
    return rows;
  }

  /** Puts rows back after a failed write; counts are sums, so merging is exact. */
  restore(rows: CounterRow[]): void {
    for (const row of rows) {
      const id = `${row.site_id}|${row.hour}|${row.reason}`;
      const existing = this.pending.get(id);
      if (existing) existing.value += row.value;
      else this.pending.set(id, { ...row });
    }
  }
}
