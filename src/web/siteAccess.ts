import type { Role } from '../contracts/roles.js';
import { AppError, notFound } from '../errors.js';
import type { MetaDb } from '../stores/meta/database.js';
import { siteGuestRole } from '../stores/meta/guests.js';
import { findLiveSiteByName, type Site } from '../stores/meta/sites.js';
import { getTeam, membershipRole } from '../stores/meta/teams.js';
import type { Viewer } from './signIn.js';

export interface ViewerSite {
  site: Site;
  /** The viewer's role: their team role, or their guest role (viewer or editor) on this site. */
  role: Role;
  guest: boolean;
}

/** One sentence for a missing site and one the viewer may not see: the answer must not tell them apart. */
const siteNotFound = () => notFound('There is no site with that domain among your sites.');

/** The live site named by `domain` that the signed-in viewer may see, with their role on it. */
export async function requireViewerSite(db: MetaDb, viewer: Viewer, domain: string, now: number): Promise<ViewerSite> {
  const site = await findLiveSiteByName(db, domain, now);
  if (!site) throw siteNotFound();
  const teamRole = await membershipRole(db, site.teamId, viewer.userId);
  if (teamRole !== undefined) return { site, role: teamRole as Role, guest: false };
  const guestRole = await siteGuestRole(db, site.id, viewer.userId);
  if (guestRole !== undefined) return { site, role: guestRole as Role, guest: true };
  throw siteNotFound();
}

/**
 * A locked team's dashboards show the lock instead of numbers (as the API answers 402), while
 * team settings and export keep working, so its owner can settle the account or take the data away.
 */
export async function refuseLockedTeam(db: MetaDb, teamId: number): Promise<void> {
  const team = await getTeam(db, teamId);
  if (team?.lockedAt != null) {
    throw new AppError(
      402,
      'account_locked',
      `This team's account is locked (${team.lockedReason ?? 'no reason given'}); a team owner can settle it in the billing settings. Event collection continues meanwhile.`,
    );
  }
}

/** The viewer's role in a team they belong to, refused unless it is one of `allowed`. */
export async function requireTeamRole(db: MetaDb, viewer: Viewer, teamId: number, allowed: readonly Role[], action: string): Promise<Role> {
  const role = (await membershipRole(db, teamId, viewer.userId)) as Role | undefined;
  if (role === undefined) throw notFound('There is no such team among yours.');
  if (!allowed.includes(role)) throw new AppError(403, 'forbidden_role', `Only a team ${allowed.join(' or ')} can ${action}; you are a ${role}.`);
  return role;
}
