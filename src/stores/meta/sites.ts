import { normaliseDomain } from '../../accounts/domains.js';
import { isValidTimeZone } from '../../accounts/timezones.js';
import { badRequest, conflict } from '../../errors.js';
import { publishEvent } from '../../webhooks/outbox.js';
import type { MetaDb } from './database.js';
import { requireTeam } from './teams.js';

export interface Site {
  id: number;
  teamId: number;
  domain: string;
  timezone: string;
  createdAt: number;
  updatedAt: number;
  deletedAt: number | null;
}

type SiteRow = { id: number; team_id: number; domain: string; timezone: string; created_at: number; updated_at: number; deleted_at: number | null };

const toSite = (row: SiteRow): Site => ({
  id: row.id,
  teamId: row.team_id,
  domain: row.domain,
  timezone: row.timezone,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  deletedAt: row.deleted_at,
});

export function parseDomain(input: string): string {
  const domain = normaliseDomain(input);
  if (!domain) throw badRequest('invalid_domain', `"${input}" is not a valid domain; give a host name such as example.com.`);
  return domain;
}

export function parseTimeZone(input: string): string {
  if (!isValidTimeZone(input)) throw badRequest('invalid_timezone', `"${input}" is not an IANA time zone such as Europe/Berlin or Etc/UTC.`);
  return input;
}

export async function createSite(db: MetaDb, input: { teamId: number; domain: string; timezone: string }, now: number): Promise<Site> {
  const domain = parseDomain(input.domain);
  const timezone = parseTimeZone(input.timezone);
  await requireTeam(db, input.teamId);
  return db.transaction().execute(async (trx) => {
    const taken = await trx.selectFrom('sites').select('id').where('domain', '=', domain).where('deleted_at', 'is', null).executeTakeFirst();
    if (taken) throw conflict('domain_taken', `The domain ${domain} is already registered.`);
    const row = await trx
      .insertInto('sites')
      .values({ team_id: input.teamId, domain, timezone, created_at: now, updated_at: now, deleted_at: null })
      .returningAll()
      .executeTakeFirstOrThrow();
    await publishEvent(trx, { type: 'site.created', teamId: row.team_id, siteId: row.id, data: { domain, timezone } }, now);
    return toSite(row);
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

export async function listTeamSites(db: MetaDb, teamId: number, page: { limit: number; afterId?: number | undefined }): Promise<Site[]> {
  let query = db.selectFrom('sites').selectAll().where('team_id', '=', teamId).where('deleted_at', 'is', null);
  if (page.afterId !== undefined) query = query.where('id', '>', page.afterId);
  const rows = await query.orderBy('id').limit(page.limit).execute();
  return rows.map(toSite);
}
