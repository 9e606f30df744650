import { SCOPES, type Scope } from './apiKeyTokens.js';

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
