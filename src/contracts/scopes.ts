/**
 * The four API key scopes (spec: API key). Kept apart from the key tokens (node:crypto) so the web
 * app can read the role rules of ./roles.ts too.
 */
export const SCOPES = ['stats:read', 'sites:read', 'sites:provision', 'webhooks:write'] as const;
export type Scope = (typeof SCOPES)[number];
