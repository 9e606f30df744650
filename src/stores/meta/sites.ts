import type { Selectable } from 'kysely';
import { normaliseDomain } from '../../accounts/domains.js';
import { isValidRawRetention, rawRetentionProblem } from '../../accounts/rawRetention.js';
import { isValidTimeZone, timeZoneProblem } from '../../accounts/timezones.js';
import { invalid, missing } from '../../errors.js';
import { formatDate, toLocal } from '../../time/localTime.js';
import type { MetaDb } from './database.js';
import type { SitesTable } from './schema.js';
import { requireTeam } from './teams.js';

export interface Site {
  id: number;
  teamId: number;
  domain: string;
  timezone: string;
  createdAt: number;
  updatedAt: number;
  deletedAt: number | null;
  /** The name the site had before its last rename; it still answers to it until the transition ends. */
  previousDomain: string | null;
  domainChangedAt: number | null;
  /** Days of raw events kept once their days are rolled up; null keeps them forever (docs/rollups.md, Retention). */
  rawRetentionDays: number | null;
  /** The start of the first local day whose raw events are all kept; null while none was deleted. */
  rawEventsFrom: number | null;
}

/** How long a renamed site keeps answering (ingestion, queries, management) under its old domain. */
export const DOMAIN_TRANSITION_MS = 30 * 24 * 3_600_000;

type SiteRow = Selectable<SitesTable>;

const toSite = (row: SiteRow): Site => ({
  id: row.id,
  teamId: row.team_id,
  domain: row.domain,
  timezone: row.timezone,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  deletedAt: row.deleted_at,
  previousDomain: row.previous_domain,
  domainChangedAt: row.domain_changed_at,
  rawRetentionDays: row.raw_retention_days,
  rawEventsFrom: row.raw_events_from,
});

export function parseDomain(input: string): string {
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
    const row = await trx
      .insertInto('sites')
      .values({ team_id: input.teamId, domain, timezone, created_at: now, updated_at: now, deleted_at: null, raw_retention_days: rawRetentionDays })
      .returningAll()
      .executeTakeFirstOrThrow();
    const site = toSite(row);
    await alongside?.(trx, site);
    return site;
  });
}

/** A live site of the given team, or undefined: callers answer 404 alike for "missing" and "not yours". */
export async function findTeamSite(db: MetaDb, teamId: number, domainInput: string): Promise<Site | undefined> {
  const domain = normaliseDomain(domainInput);
  if (!domain) return undefined;
  const row = await db
    .selectFrom('sites')
    .selectAll()
    .where('domain', '=', domain)
    .where('team_id', '=', teamId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row && toSite(row);
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
  let query = db.selectFrom('sites').selectAll().where('team_id', '=', teamId).where('deleted_at', 'is', null);
  if (page.afterId !== undefined) query = query.where('id', '>', page.afterId);
  if (page.beforeId !== undefined) query = query.where('id', '<', page.beforeId);
  const rows = await query
    .orderBy('id', page.beforeId !== undefined ? 'desc' : 'asc')
    .limit(page.limit)
    .execute();
  return rows.map(toSite);
}

/** A domain is taken by a live site that holds it now or held it within the transition period. */
async function refuseTakenDomain(db: MetaDb, domain: string, now: number, exceptSiteId?: number): Promise<void> {
  let query = db
    .selectFrom('sites')
    .select('id')
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('domain', '=', domain), eb.and([eb('previous_domain', '=', domain), eb('domain_changed_at', '>', now - DOMAIN_TRANSITION_MS)])]));
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
  let query = db.selectFrom('sites').selectAll();
  if (teamId !== undefined) query = query.where('team_id', '=', teamId);
  const rows = await query
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('domain', '=', domain), eb.and([eb('previous_domain', '=', domain), eb('domain_changed_at', '>', now - DOMAIN_TRANSITION_MS)])]))
    .execute();
  // The current holder of a name wins over a site that merely used to have it.
  const row = rows.find((r) => r.domain === domain) ?? rows[0];
  return row && toSite(row);
}

export async function getSite(db: MetaDb, siteId: number): Promise<Site | undefined> {
  const row = await db.selectFrom('sites').selectAll().where('id', '=', siteId).executeTakeFirst();
  return row && toSite(row);
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
    const current = await trx.selectFrom('sites').selectAll().where('id', '=', siteId).where('deleted_at', 'is', null).executeTakeFirst();
    if (!current) throw missing('Site could not be found.');
    const renamed = domain !== undefined && domain !== current.domain;
    if (renamed) await refuseTakenDomain(trx, domain, now, siteId);
    const moved = timezone !== undefined && timezone !== current.timezone;
    const refuseMove = (rawEventsFrom: number) =>
      invalid(
        'timezone_fixed',
        `${current.domain} cannot move to another time zone: its raw events before ${formatDate(toLocal(rawEventsFrom, current.timezone))} were deleted after their days were rolled up in ${current.timezone}, and those days cannot be cut again in another zone.`,
      );
    if (moved && current.raw_events_from !== null) throw refuseMove(current.raw_events_from);
    let update = trx
      .updateTable('sites')
      .set({
        updated_at: now,
        ...(moved ? { timezone } : {}),
        ...(renamed ? { domain, previous_domain: current.domain, domain_changed_at: now } : {}),
        ...(rawRetentionDays !== undefined ? { raw_retention_days: rawRetentionDays } : {}),
      })
      .where('id', '=', siteId);
    // The roll-up job may record deleted raw events meanwhile (setRawEventsFrom): then the zone stays.
    if (moved) update = update.where('raw_events_from', 'is', null);
    const row = await update.returningAll().executeTakeFirst();
    if (!row) {
      const marked = await trx.selectFrom('sites').select('raw_events_from').where('id', '=', siteId).executeTakeFirstOrThrow();
      throw refuseMove(marked.raw_events_from ?? 0);
    }
    return toSite(row);
  });
}

/**
 * Records that a site's raw events before `from` are about to be deleted, unless its time zone is
 * no longer the one its days were rolled up in or the site is gone; false then, and nothing may be
 * deleted. The mark only moves forward: deleted events do not come back.
 */
export async function setRawEventsFrom(db: MetaDb, siteId: number, timezone: string, from: number): Promise<boolean> {
  const result = await db
    .updateTable('sites')
    .set({ raw_events_from: from })
    .where('id', '=', siteId)
    .where('timezone', '=', timezone)
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('raw_events_from', 'is', null), eb('raw_events_from', '<', from)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Soft delete: the row stays (ingestion answers `site_deleted`, the domain is free for a new
 * site) and `purgeDeletedSites` later removes the analytics rows.
 */
export async function deleteSite(db: MetaDb, siteId: number, now: number): Promise<void> {
  await db.updateTable('sites').set({ deleted_at: now, updated_at: now }).where('id', '=', siteId).where('deleted_at', 'is', null).execute();
}

/** Every site that is not deleted, with the time zone its days are cut in and how long it keeps raw events. */
export async function liveSites(db: MetaDb): Promise<{ id: number; timezone: string; rawRetentionDays: number | null; rawEventsFrom: number | null }[]> {
  const rows = await db
    .selectFrom('sites')
    .select(['id', 'timezone', 'raw_retention_days', 'raw_events_from'])
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ id: row.id, timezone: row.timezone, rawRetentionDays: row.raw_retention_days, rawEventsFrom: row.raw_events_from }));
}

export async function sitesAwaitingPurge(db: MetaDb): Promise<number[]> {
  const rows = await db.selectFrom('sites').select('id').where('deleted_at', 'is not', null).where('purged_at', 'is', null).orderBy('id').execute();
  return rows.map((r) => r.id);
}

export async function markSitePurged(db: MetaDb, siteId: number, now: number): Promise<void> {
  await db.updateTable('sites').set({ purged_at: now }).where('id', '=', siteId).execute();
}
