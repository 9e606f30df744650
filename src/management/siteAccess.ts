import type { Role } from '../contracts/roles.js';
import { AppError, badRequest, notFound } from '../errors.js';
import type { ApiCaller } from '../stores/meta/apiKeys.js';
import type { MetaDb } from '../stores/meta/database.js';
import { findTeamSiteByName, type Site } from '../stores/meta/sites.js';
import { membershipRole } from '../stores/meta/teams.js';

/** One sentence for a missing site and another team's site: the answer must not tell them apart. */
export const siteNotFound = () => notFound('Site could not be found.');

/** The caller's live site named by `site_id` (its domain, or its previous domain during a rename). */
export async function requireTeamSite(db: MetaDb, caller: ApiCaller, siteId: unknown, now: number): Promise<Site> {
  if (typeof siteId !== 'string' || siteId.trim() === '') throw badRequest('missing_site_id', 'Parameter "site_id" (the site\'s domain) is required.');
  const site = await findTeamSiteByName(db, caller.teamId, siteId, now);
  if (!site) throw siteNotFound();
  return site;
}

/** The key's own user must hold one of these roles in the key's team. */
export async function requireRole(db: MetaDb, caller: ApiCaller, allowed: readonly Role[], action: string): Promise<Role> {
  const role = (await membershipRole(db, caller.teamId, caller.userId)) as Role | undefined;
  if (role === undefined || !allowed.includes(role)) {
    // A signed-in web-app session acts as caller 0 (src/web/apiSession.ts); keys have their own ids.
    const who = caller.id === 0 ? 'you are' : 'this API key belongs to';
    const what = role === undefined ? 'someone outside the team' : `${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}`;
    throw new AppError(403, 'forbidden_role', `Only a team ${allowed.join(' or ')} can ${action}; ${who} ${what}.`);
  }
  return role;
}

/** `team_id` may be given, but only as the key's own team: a key sees exactly one team. */
export function checkTeamParameter(caller: ApiCaller, teamId: string | number | undefined, otherwise: () => AppError): void {
  if (teamId === undefined || teamId === '') return;
  if (String(teamId) !== String(caller.teamId)) throw otherwise();
}
