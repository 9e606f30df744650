import type { Generated } from 'kysely';

/**
 * Metadata tables as Kysely sees them. Times are epoch milliseconds (bigint on PostgreSQL,
 * integer on SQLite) so both dialects compare and store them the same way, and booleans are
 * expressed as nullable timestamps (`locked_at`, `revoked_at`, `deleted_at`).
 */
export interface MetaSchema {
  users: UsersTable;
  teams: TeamsTable;
  memberships: MembershipsTable;
  sites: SitesTable;
  api_keys: ApiKeysTable;
  api_key_usage: ApiKeyUsageTable;
}

export interface UsersTable {
  id: Generated<number>;
  email: string;
  email_normalized: string;
  name: string;
  password_hash: string | null;
  created_at: number;
}

export interface TeamsTable {
  id: Generated<number>;
  name: string;
  locked_at: number | null;
  locked_reason: string | null;
  collection_stopped_at: number | null;
  created_at: number;
}

export interface MembershipsTable {
  team_id: number;
  user_id: number;
  role: string;
  created_at: number;
}

export interface SitesTable {
  id: Generated<number>;
  team_id: number;
  domain: string;
  timezone: string;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

export interface ApiKeysTable {
  id: Generated<number>;
  team_id: number;
  user_id: number;
  name: string;
  key_prefix: string;
  key_hash: string;
  scopes: string;
  hourly_limit: number;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface ApiKeyUsageTable {
  api_key_id: number;
  window_start: number;
  count: number;
}
