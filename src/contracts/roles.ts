import { SCOPES, type Scope } from './scopes.js';

export const ROLES = ['owner', 'admin', 'editor', 'viewer', 'billing'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What each team role may do through the API when signed in to the web app (an API key carries
 * its own scopes instead): viewers read, editors also change site set-up, owners and admins
 * everything. Routes that need more than a scope (members, ownership) check the role as well.
 */
export const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  owner: SCOPES,
  admin: SCOPES,
  editor: ['stats:read', 'sites:read', 'sites:provision'],
  viewer: ['stats:read', 'sites:read'],
  billing: ['sites:read'],
};

/** Who manages the team's people and keys: members, guests, invitations, API keys. */
export const TEAM_MANAGERS: readonly Role[] = ['owner', 'admin'];

/** Who opens a site's settings and exports its data: everyone who may change its set-up. */
export const SITE_EDITORS: readonly Role[] = ROLES.filter((role) => ROLE_SCOPES[role].includes('sites:provision'));

/** Only the owner deletes a site or hands the team over. */
export const OWNER: Role = 'owner';

/** Whether a role (as the server names it) is one of a list; false for a name that is not a role. */
export const roleIn = (role: string | undefined, roles: readonly Role[]): boolean => (roles as readonly string[]).includes(role ?? '');
