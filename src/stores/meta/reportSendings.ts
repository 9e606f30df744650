import { type MetaDb, type MetaRecord, records } from './database.js';

/**
 * The record of each report sent to each recipient for each period (migration 0016), keyed by
 * site, kind, period start and address. The row is written before the mail goes to the SMTP server
 * and is the claim on sending it: src/reports/reportSender.ts explains the guarantee.
 */

export type ReportSending = MetaRecord<'report_sendings'>;

export interface SendingKey {
  siteId: number;
  /** weekly or monthly */
  kind: string;
  /** YYYY-MM-DD, the site's time zone. */
  periodStart: string;
  email: string;
}

const keyed = (db: MetaDb, key: SendingKey) =>
  records(db)
    .updateTable('report_sendings')
    .where('siteId', '=', key.siteId)
    .where('kind', '=', key.kind)
    .where('periodStart', '=', key.periodStart)
    .where('email', '=', key.email);

/**
 * Claims one sending: a new row in state `sending`, or a `failed` row (the SMTP server refused it,
 * so it was not sent) with fewer than `maxAttempts` attempts moved back to `sending`. Either is one
 * statement that at most one caller wins; false means it is sent, being sent, or given up.
 */
export async function claimSending(db: MetaDb, key: SendingKey, now: number, maxAttempts: number): Promise<boolean> {
  const inserted = await records(db)
    .insertInto('report_sendings')
    .values({ ...key, state: 'sending', attempts: 1, claimedAt: now, sentAt: null, error: null })
    .onConflict((oc) => oc.columns(['siteId', 'kind', 'periodStart', 'email']).doNothing())
    .returning('email')
    .executeTakeFirst();
  if (inserted) return true;
  const retried = await keyed(db, key)
    .set((eb) => ({ state: 'sending', attempts: eb('attempts', '+', 1), claimedAt: now, error: null }))
    .where('state', '=', 'failed')
    .where('attempts', '<', maxAttempts)
    .executeTakeFirst();
  return Number(retried.numUpdatedRows) > 0;
}

export async function markSent(db: MetaDb, key: SendingKey, now: number): Promise<void> {
  await keyed(db, key).set({ state: 'sent', sentAt: now }).where('state', '=', 'sending').execute();
}

/** The SMTP server refused the mail (nothing was sent): another round may try again. */
export async function markFailed(db: MetaDb, key: SendingKey, error: string): Promise<void> {
  await keyed(db, key)
    .set({ state: 'failed', error: error.slice(0, 500) })
    .where('state', '=', 'sending')
    .execute();
}

/**
 * Sendings claimed before `claimedBefore` and never settled: their sender stopped between the claim
 * and the SMTP server's answer, so whether the mail left is unknown. They become `interrupted`
 * (never sent again) and are returned, so the caller logs each.
 */
export async function closeInterrupted(db: MetaDb, claimedBefore: number): Promise<ReportSending[]> {
  const stale = await records(db).selectFrom('report_sendings').selectAll().where('state', '=', 'sending').where('claimedAt', '<', claimedBefore).execute();
  for (const row of stale) {
    await keyed(db, row)
      .set({ state: 'interrupted', error: 'The sender stopped before the SMTP server answered; not sent again, to never send twice.' })
      .where('state', '=', 'sending')
      .where('claimedAt', '=', row.claimedAt)
      .execute();
  }
  return stale;
}

/** A sending's current state, or undefined when there is no row. */
export async function sendingState(db: MetaDb, key: SendingKey): Promise<string | undefined> {
  const row = await records(db)
    .selectFrom('report_sendings')
    .select('state')
    .where('siteId', '=', key.siteId)
    .where('kind', '=', key.kind)
    .where('periodStart', '=', key.periodStart)
    .where('email', '=', key.email)
    .executeTakeFirst();
  return row?.state;
}
