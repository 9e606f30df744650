import { normaliseDomain, siteAddressProblem } from '../../accounts/domains.js';
import { isValidTimeZone, timeZoneProblem } from '../../accounts/timezones.js';
import { isValidRawRetention, rawRetentionProblem } from '../../contracts/rawRetention.js';
import { invalid, missing } from '../../errors.js';
import { formatDate, toLocal } from '../../time/localTime.js';
import { type MetaDb, type MetaRecord, records } from './database.js';
import { requireTeam } from './teams.js';

/** A site's record: every column but those of its settings (siteSettings.ts) and its purge. */
const SITE_COLUMNS = [
  'id',
  'teamId',
  'domain',
  'timezone',
  'createdAt',
  'updatedAt',
  'deletedAt',
  'previousDomain',
  'domainChangedAt',
  'rawRetentionDays',
  'rawEventsFrom',
] as const;

export type Site = Pick<MetaRecord<'sites'>, (typeof SITE_COLUMNS)[number]>;

/** How long a renamed site keeps answering (ingestion, queries, management) under its old domain. */
export const DOMAIN_TRANSITION_MS = 30 * 24 * 3_600_000;

export function parseDomain(input: string): string {
  const problem = siteAddressProblem(input);
  if (problem) throw invalid('invalid_domain', problem);
  const domain = normaliseDomain(input);
  if (!domain) throw invalid('invalid_domain', `"${input}" is not a valid domain; give a host name such as example.com.`);
  return domain;
}

export function parseTimeZone(input: string): string {
  if (!isValidTimeZone(input)) throw invalid('invalid_timezone', timeZoneProblem(input));
  return input;
}

export function parseRawRetentionDays(input: number | null): number | null {
  if (!isValidRawRetention(input)) throw invalid('invalid_raw_retention_days', rawRetentionProblem(input ?? 0));
  return input;
}

/**
 * Registers a site. `alongside` runs in the same transaction once the row exists, so whatever a
 * caller records about the new site (src/management/sites.ts announces it) commits with it or not at all.
 */
export async function createSite(
  db: MetaDb,
  input: { teamId: number; domain: string; timezone: string; rawRetentionDays?: number | null | undefined },
  now: number,
  alongside?: (trx: MetaDb, site: Site) => Promise<void>,
): Promise<Site> {
  const domain = parseDomain(input.domain);
  const timezone = parseTimeZone(input.timezone);
  const rawRetentionDays = parseRawRetentionDays(input.rawRetentionDays ?? null);
  await requireTeam(db, input.teamId);
  return db.transaction().execute(async (trx) => {
    await refuseTakenDomain(trx, domain, now);
    const site = await records(trx)
      .insertInto('sites')
      .values({ teamId: input.teamId, domain, timezone, createdAt: now, updatedAt: now, deletedAt: null, rawRetentionDays: rawRetentionDays })
      .returning(SITE_COLUMNS)
      .executeTakeFirstOrThrow();
    await alongside?.(trx, site);
    return site;
  });
}

/** A live site of the given team, or undefined: callers answer 404 alike for "missing" and "not yours". */
export async function findTeamSite(db: MetaDb, teamId: number, domainInput: string): Promise<Site | undefined> {
  const domain = normaliseDomain(domainInput);
  if (!domain) return undefined;
  return records(db)
    .selectFrom('sites')
    .select(SITE_COLUMNS)
    .where('domain', '=', domain)
    .where('teamId', '=', teamId)
    .where('deletedAt', 'is', null)
    .executeTakeFirst();
}

/**
 * Live sites of a team in id order. With `beforeId` the rows nearest below it come first
 * (descending), which is what a "previous page" needs.
 */
export async function listTeamSites(
  db: MetaDb,
  teamId: number,
  page: { limit: number; afterId?: number | undefined; beforeId?: number | undefined },
): Promise<Site[]> {
  let query = records(db).selectFrom('sites').select(SITE_COLUMNS).where('teamId', '=', teamId).where('deletedAt', 'is', null);
  if (page.afterId !== undefined) query = query.where('id', '>', page.afterId);
  if (page.beforeId !== undefined) query = query.where('id', '<', page.beforeId);
  return query
    .orderBy('id', page.beforeId !== undefined ? 'desc' : 'asc')
    .limit(page.limit)
    .execute();
}

/** A domain is taken by a live site that holds it now or held it within the transition period. */
async function refuseTakenDomain(db: MetaDb, domain: string, now: number, exceptSiteId?: number): Promise<void> {
  let query = records(db)
    .selectFrom('sites')
    .select('id')
    .where('deletedAt', 'is', null)
    .where((eb) => eb.or([eb('domain', '=', domain), eb.and([eb('previousDomain', '=', domain), eb('domainChangedAt', '>', now - DOMAIN_TRANSITION_MS)])]));
  if (exceptSiteId !== undefined) query = query.where('id', '!=', exceptSiteId);
  // 400 as Plausible answers every refused domain; its clients do not expect a 409 here.
  if (await query.executeTakeFirst()) throw invalid('domain_taken', `The domain ${domain} is already registered.`);
}

/**
 * A live site of the team by its domain, or by its previous domain while the rename is in
 * transition. Undefined for "missing" and "another team's" alike, so both answer the same 404.
 */
export async function findTeamSiteByName(db: MetaDb, teamId: number, name: string, now: number): Promise<Site | undefined> {
  return findLiveSiteByName(db, name, now, teamId);
}

/** A live site by its domain (or previous domain in transition), of any team unless one is named. */
export async function findLiveSiteByName(db: MetaDb, name: string, now: number, teamId?: number): Promise<Site | undefined> {
  const domain = normaliseDomain(name);
  if (!domain) return undefined;
  let query = records(db).selectFrom('sites').select(SITE_COLUMNS);
  if (teamId !== undefined) query = query.where('teamId', '=', teamId);
  const rows = await query
    .where('deletedAt', 'is', null)
    .where((eb) => eb.or([eb('domain', '=', domain), eb.and([eb('previousDomain', '=', domain), eb('domainChangedAt', '>', now - DOMAIN_TRANSITION_MS)])]))
    .execute();
  // The current holder of a name wins over a site that merely used to have it.
  return rows.find((r) => r.domain === domain) ?? rows[0];
}

export async function getSite(db: MetaDb, siteId: number): Promise<Site | undefined> {
  return records(db).selectFrom('sites').select(SITE_COLUMNS).where('id', '=', siteId).executeTakeFirst();
}

/**
 * Renames a site, moves it to another time zone, and/or sets how long it keeps raw events. A
 * rename keeps every stored event (they are keyed by site id) and remembers the old name, which
 * keeps answering for DOMAIN_TRANSITION_MS.
 *
 * Once raw events were deleted, the time zone stays: the daily roll-ups that replace them were
 * cut in its days, and without the raw events they cannot be cut again (docs/rollups.md, Retention).
 */
export async function updateSite(
  db: MetaDb,
  siteId: number,
  change: { domain?: string | undefined; timezone?: string | undefined; rawRetentionDays?: number | null | undefined },
  now: number,
): Promise<Site> {
  const domain = change.domain === undefined ? undefined : parseDomain(change.domain);
  const timezone = change.timezone === undefined ? undefined : parseTimeZone(change.timezone);
  const rawRetentionDays = change.rawRetentionDays === undefined ? undefined : parseRawRetentionDays(change.rawRetentionDays);
  return db.transaction().execute(async (trx) => {
    const current = await records(trx).selectFrom('sites').select(SITE_COLUMNS).where('id', '=', siteId).where('deletedAt', 'is', null).executeTakeFirst();
    if (!current) throw missing('Site could not be found.');
    const renamed = domain !== undefined && domain !== current.domain;
    if (renamed) await refuseTakenDomain(trx, domain, now, siteId);
    const moved = timezone !== undefined && timezone !== current.timezone;
    const refuseMove = (rawEventsFrom: number) =>
      invalid(
        'timezone_fixed',
        `${current.domain} cannot move to another time zone: its raw events before ${formatDate(toLocal(rawEventsFrom, current.timezone))} were deleted after their days were rolled up in ${current.timezone}, and those days cannot be cut again in another zone.`,
      );
    if (moved && current.rawEventsFrom !== null) throw refuseMove(current.rawEventsFrom);
    let update = records(trx)
      .updateTable('sites')
      .set({
        updatedAt: now,
        ...(moved ? { timezone } : {}),
        ...(renamed ? { domain, previousDomain: current.domain, domainChangedAt: now } : {}),
        ...(rawRetentionDays !== undefined ? { rawRetentionDays: rawRetentionDays } : {}),
      })
      .where('id', '=', siteId);
    // The roll-up job may record deleted raw events meanwhile (setRawEventsFrom): then the zone stays.
    if (moved) update = update.where('rawEventsFrom', 'is', null);
    const site = await update.returning(SITE_COLUMNS).executeTakeFirst();
    if (!site) {
      const marked = await records(trx).selectFrom('sites').select('rawEventsFrom').where('id', '=', siteId).executeTakeFirstOrThrow();
      throw refuseMove(marked.rawEventsFrom ?? 0);
    }
    return site;
  });
}

/**
 * Records that a site's raw events before `from` are about to be deleted, unless its time zone is
 * no longer the one its days were rolled up in or the site is gone; false then, and nothing may be
 * deleted. The mark only moves forward: deleted events do not come back.
 */
export async function setRawEventsFrom(db: MetaDb, siteId: number, timezone: string, from: number): Promise<boolean> {
  const result = await records(db)
    .updateTable('sites')
    .set({ rawEventsFrom: from })
    .where('id', '=', siteId)
    .where('timezone', '=', timezone)
    .where('deletedAt', 'is', null)
    .where((eb) => eb.or([eb('rawEventsFrom', 'is', null), eb('rawEventsFrom', '<', from)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Soft delete: the row stays (ingestion answers `site_deleted`, the domain is free for a new
 * site) and `purgeDeletedSites` later removes the analytics rows.
 */
export async function deleteSite(db: MetaDb, siteId: number, now: number): Promise<void> {
  await records(db).updateTable('sites').set({ deletedAt: now, updatedAt: now }).where('id', '=', siteId).where('deletedAt', 'is', null).execute();
}

/** Every site that is not deleted, with the time zone its days are cut in and how long it keeps raw events. */
export async function liveSites(db: MetaDb): Promise<{ id: number; timezone: string; rawRetentionDays: number | null; rawEventsFrom: number | null }[]> {
  return records(db).selectFrom('sites').select(['id', 'timezone', 'rawRetentionDays', 'rawEventsFrom']).where('deletedAt', 'is', null).orderBy('id').execute();
}

export async function sitesAwaitingPurge(db: MetaDb): Promise<number[]> {
  const rows = await records(db).selectFrom('sites').select('id').where('deletedAt', 'is not', null).where('purgedAt', 'is', null).orderBy('id').execute();
  return rows.map((r) => r.id);
}

export async function markSitePurged(db: MetaDb, siteId: number, now: number): Promise<void> {
  await records(db).updateTable('sites').set({ purgedAt: now }).where('id', '=', siteId).execute();
}
