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
  salts: SaltsTable;
  site_shields: SiteShieldsTable;
  goals: GoalsTable;
  funnels: FunnelsTable;
  funnel_steps: FunnelStepsTable;
  custom_props: CustomPropsTable;
  shared_links: SharedLinksTable;
  invitations: InvitationsTable;
  site_guests: SiteGuestsTable;
  ownership_transfers: OwnershipTransfersTable;
  webhook_events: WebhookEventsTable;
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
  /** Space-separated classification reasons this site counts in its reports. */
  included_classifications: Generated<string>;
  previous_domain: string | null;
  domain_changed_at: number | null;
  /** JSON of the tracker options the snippet is rendered from. */
  tracker_script_configuration: Generated<string>;
  /** When a deleted site's analytics rows were removed; null while still to do. */
  purged_at: number | null;
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

export interface SaltsTable {
  day: string;
  salt: string;
  created_at: number;
}

export interface SiteShieldsTable {
  id: Generated<number>;
  site_id: number;
  kind: 'ip' | 'country' | 'page' | 'hostname';
  value: string;
  description: string | null;
  created_at: number;
}

export interface GoalsTable {
  id: Generated<number>;
  site_id: number;
  event_name: string | null;
  page_path: string | null;
  scroll_threshold: Generated<number>;
  display_name: string;
  currency: string | null;
  created_at: number;
}

export interface FunnelsTable {
  id: Generated<number>;
  site_id: number;
  name: string;
  created_at: number;
}

export interface FunnelStepsTable {
  funnel_id: number;
  step_order: number;
  goal_id: number;
}

export interface CustomPropsTable {
  site_id: number;
  property: string;
  created_at: number;
}

export interface SharedLinksTable {
  id: Generated<number>;
  site_id: number;
  name: string;
  slug: string;
  password_hash: string | null;
  created_at: number;
}

export interface InvitationsTable {
  id: Generated<number>;
  team_id: number;
  site_id: number | null;
  email: string;
  email_normalized: string;
  role: string;
  token_hash: string;
  invited_by_user_id: number | null;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
  revoked_at: number | null;
}

export interface SiteGuestsTable {
  site_id: number;
  user_id: number;
  role: string;
  created_at: number;
}

export interface OwnershipTransfersTable {
  id: Generated<number>;
  team_id: number;
  from_user_id: number;
  to_email_normalized: string;
  token_hash: string;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
  revoked_at: number | null;
}

export interface WebhookEventsTable {
  id: Generated<number>;
  event_id: string;
  type: string;
  team_id: number;
  site_id: number | null;
  /** JSON of the event's `data`. */
  payload: string;
  created_at: number;
  dispatched_at: number | null;
}
