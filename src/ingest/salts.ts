import { randomBytes } from 'node:crypto';
import type { MetaDb } from '../stores/meta/database.js';

const DAY = 86_400_000;

export interface DaySalts {
  /** UTC day the current salt belongs to, YYYY-MM-DD. */
  day: string;
  current: Buffer;
  /** Yesterday's salt, consulted only to continue a visit across midnight. */
  previous: Buffer | null;
}

export interface SaltSource {
  saltsFor(epochMs: number): Promise<DaySalts>;
}

/** YYYY-MM-DD of an instant in UTC; every event asks, so the last day's text is kept. */
export function utcDay(epochMs: number): string {
  const dayNumber = Math.floor(epochMs / DAY);
  if (dayNumber !== lastDay.number) lastDay = { number: dayNumber, text: new Date(dayNumber * DAY).toISOString().slice(0, 10) };
  return lastDay.text;
}
let lastDay = { number: Number.NaN, text: '' };

/**
 * Live salts, kept in the metadata store so every process hashes alike. A day's salt is made
 * by whoever needs it first (insert-if-absent, so racing processes agree); anything older than
 * yesterday is deleted, so a visitor can never be linked across more than one midnight.
 */
export class StoredSalts implements SaltSource {
  private cached: DaySalts | undefined;

  constructor(private readonly db: MetaDb) {}

  async saltsFor(epochMs: number): Promise<DaySalts> {
    const day = utcDay(epochMs);
    if (this.cached?.day === day) return this.cached;
    return this.rotate(epochMs);
  }

  /** Makes sure today's salt exists and nothing before yesterday's does; run at midnight and on demand. */
  async rotate(epochMs: number): Promise<DaySalts> {
    const day = utcDay(epochMs);
    const yesterday = utcDay(epochMs - DAY);
    await this.db
      .insertInto('salts')
      .values({ day, salt: randomBytes(16).toString('hex'), created_at: epochMs })
      .onConflict((oc) => oc.column('day').doNothing())
      .execute();
    await this.db.deleteFrom('salts').where('day', '<', yesterday).execute();
    const rows = await this.db.selectFrom('salts').select(['day', 'salt']).where('day', 'in', [day, yesterday]).execute();
    const byDay = new Map(rows.map((row) => [row.day, Buffer.from(row.salt, 'hex')]));
    const salts: DaySalts = { day, current: byDay.get(day)!, previous: byDay.get(yesterday) ?? null };
    this.cached = salts;
    return salts;
  }
}

/**
 * Salts for replaying history (the import): one random salt per past day, held only in memory
 * for the run, so imported visitors are counted consistently and nothing links them later.
 */
export class EphemeralSalts implements SaltSource {
  private days = new Map<string, Buffer>();

  async saltsFor(epochMs: number): Promise<DaySalts> {
    const day = utcDay(epochMs);
    return { day, current: this.salt(day), previous: this.salt(utcDay(epochMs - DAY)) };
  }

  private salt(day: string): Buffer {
    let salt = this.days.get(day);
    if (!salt) {
      salt = randomBytes(16);
      this.days.set(day, salt);
    }
    return salt;
  }
}
