import type { EmailTopic, NoticeKind } from '../../contracts/emailReports.js';
import { type MetaDb, type MetaRecord, records } from './database.js';

/**
 * Who gets a site's email reports and traffic notices, and the notices' thresholds (migration 0016).
 * Addresses are stored trimmed and lower-cased, so one address is one recipient.
 */

export type EmailRecipient = MetaRecord<'email_recipients'>;
export type TrafficThreshold = MetaRecord<'traffic_thresholds'>;

export async function listRecipients(db: MetaDb, siteId: number): Promise<EmailRecipient[]> {
  return records(db).selectFrom('email_recipients').selectAll().where('siteId', '=', siteId).orderBy('topic').orderBy('createdAt').orderBy('email').execute();
}

/** The addresses on one list; with `addedBy`, only those added by then (a report goes to those on the list when it fell due). */
export async function recipientsOf(db: MetaDb, siteId: number, topic: EmailTopic, addedBy?: number): Promise<string[]> {
  let query = records(db).selectFrom('email_recipients').select('email').where('siteId', '=', siteId).where('topic', '=', topic);
  if (addedBy !== undefined) query = query.where('createdAt', '<=', addedBy);
  return (await query.orderBy('email').execute()).map((row) => row.email);
}

/** Adds an address to a list; false when it was on it already. */
export async function addRecipient(db: MetaDb, siteId: number, topic: EmailTopic, email: string, now: number): Promise<boolean> {
  const row = await records(db)
    .insertInto('email_recipients')
    .values({ siteId, topic, email, createdAt: now })
    .onConflict((oc) => oc.columns(['siteId', 'topic', 'email']).doNothing())
    .returning('email')
    .executeTakeFirst();
  return row !== undefined;
}

/** Takes an address off a list; false when it was not on it. */
export async function removeRecipient(db: MetaDb, siteId: number, topic: EmailTopic, email: string): Promise<boolean> {
  const result = await records(db)
    .deleteFrom('email_recipients')
    .where('siteId', '=', siteId)
    .where('topic', '=', topic)
    .where('email', '=', email)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The live sites with at least one address on one of `topics`, with what a report needs of them. */
export async function sitesWithRecipients(
  db: MetaDb,
  topics: readonly EmailTopic[],
): Promise<{ id: number; teamId: number; domain: string; timezone: string }[]> {
  return records(db)
    .selectFrom('sites')
    .select(['sites.id', 'sites.teamId', 'sites.domain', 'sites.timezone'])
    .where('sites.deletedAt', 'is', null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('email_recipients')
          .select('email_recipients.siteId')
          .whereRef('email_recipients.siteId', '=', 'sites.id')
          .where('email_recipients.topic', 'in', [...topics]),
      ),
    )
    .orderBy('sites.id')
    .execute();
}

export async function listThresholds(db: MetaDb, siteId: number): Promise<TrafficThreshold[]> {
  return records(db).selectFrom('traffic_thresholds').selectAll().where('siteId', '=', siteId).execute();
}

/** Sets a notice's threshold, keeping when the last one went out; null removes it (the notice is off). */
export async function setThreshold(db: MetaDb, siteId: number, kind: NoticeKind, threshold: number | null): Promise<void> {
  if (threshold === null) {
    await records(db).deleteFrom('traffic_thresholds').where('siteId', '=', siteId).where('kind', '=', kind).execute();
    return;
  }
  await records(db)
    .insertInto('traffic_thresholds')
    .values({ siteId, kind, threshold, lastNoticedAt: null })
    .onConflict((oc) => oc.columns(['siteId', 'kind']).doUpdateSet({ threshold }))
    .execute();
}

/** Every threshold of the live sites, with what the detector needs of each site. */
export async function thresholdsToWatch(db: MetaDb): Promise<(TrafficThreshold & { teamId: number; domain: string; timezone: string })[]> {
  return records(db)
    .selectFrom('traffic_thresholds')
    .innerJoin('sites', 'sites.id', 'traffic_thresholds.siteId')
    .selectAll('traffic_thresholds')
    .select(['sites.teamId', 'sites.domain', 'sites.timezone'])
    .where('sites.deletedAt', 'is', null)
    .orderBy('traffic_thresholds.siteId')
    .orderBy('traffic_thresholds.kind')
    .execute();
}

/**
 * Takes the right to send a notice: sets `last_noticed_at` to now unless a notice of this kind
 * went out less than `quietMs` ago, in one conditional statement, so of two nodes (or rounds)
 * exactly one wins. True when this caller is to send it.
 */
export async function claimNotice(db: MetaDb, siteId: number, kind: NoticeKind, now: number, quietMs: number): Promise<boolean> {
  const result = await records(db)
    .updateTable('traffic_thresholds')
    .set({ lastNoticedAt: now })
    .where('siteId', '=', siteId)
    .where('kind', '=', kind)
    .where((eb) => eb.or([eb('lastNoticedAt', 'is', null), eb('lastNoticedAt', '<=', now - quietMs)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
