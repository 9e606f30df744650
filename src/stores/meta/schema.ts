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
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  notices: NoticesTable;
  web_sessions: WebSessionsTable;
  recovery_codes: RecoveryCodesTable;
  account_tokens: AccountTokensTable;
  imports: ImportsTable;
  leases: LeasesTable;
  email_recipients: EmailRecipientsTable;
  traffic_thresholds: TrafficThresholdsTable;
  report_sendings: ReportSendingsTable;
  segments: SegmentsTable;
  annotations: AnnotationsTable;
}

export interface UsersTable {
  id: Generated<number>;
  email: string;
  email_normalized: string;
  name: string;
  password_hash: string | null;
  created_at: number;
  /** The TOTP secret, sealed (src/accounts/secretBox.ts); set while two-factor sign-in is being set up or is on. */
  totp_secret: string | null;
  /** When two-factor sign-in was turned on; null while off or being set up. */
  totp_enabled_at: number | null;
  /** The last TOTP time step used to sign in: a code is accepted once. */
  totp_last_step: number | null;
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
  /** The name the site had before its last rename; it still answers to it until the transition ends. */
  previous_domain: string | null;
  domain_changed_at: number | null;
  /** JSON of the tracker options the snippet is rendered from. */
  tracker_script_configuration: Generated<string>;
  /** When a deleted site's analytics rows were removed; null while still to do. */
  purged_at: number | null;
  /** Days of raw events kept once rolled up (docs/rollups.md, Retention); null keeps them forever. */
  raw_retention_days: number | null;
  /** The start of the first local day whose raw events are all kept; null while none was deleted. */
  raw_events_from: number | null;
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

export interface SegmentsTable {
  id: Generated<number>;
  site_id: number;
  /** Null once the author's account is gone (a shared segment outlives it). */
  owner_id: number | null;
  name: string;
  /** 'personal' (its owner's own) or 'site' (shared with the site's viewers). */
  type: string;
  /** JSON: the v2 filter list. */
  filters: string;
  /** JSON: how the dashboard shows filter values, value → label. */
  labels: string;
  created_at: number;
  updated_at: number;
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

export interface WebhooksTable {
  id: Generated<number>;
  team_id: number;
  url: string;
  /** Space-separated subscribed types; empty means every type. */
  event_types: string;
  secret: string;
  /** The secret before the last rotation, still signed with until `previous_secret_expires_at`. */
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  consecutive_failures: Generated<number>;
  /** Set after too many consecutive failures; nothing is sent until re-enabled. */
  stopped_at: number | null;
  /** The newest outbox row (`webhook_events.id`) at registration; the webhook hears the events after it. */
  subscribed_after_event_row_id: number;
  created_at: number;
  updated_at: number;
}

export type WebhookDeliveryState = 'queued' | 'succeeded' | 'failed' | 'withheld' | 'cancelled';

export interface WebhookDeliveriesTable {
  /** The `Svc-Delivery` header. */
  id: Generated<number>;
  webhook_id: number;
  event_row_id: number;
  /** The delivery a manual redelivery repeats. */
  redelivery_of: number | null;
  state: WebhookDeliveryState;
  attempts: Generated<number>;
  next_attempt_at: number | null;
  /** A worker's lease on the row while it attempts it; an expired lease may be taken over. */
  claimed_until: number | null;
  claim_token: string | null;
  created_at: number;
  completed_at: number | null;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  webhook_id: number;
  attempted_at: number;
  status_code: number | null;
  /** Why there is no usable answer: timeout, redirect_refused, connection_error, address_refused. */
  error: string | null;
  error_detail: string | null;
  duration_ms: number;
  /** The first 2 KB of the receiver's response. */
  response_body: string;
  response_truncated: number;
}

export interface NoticesTable {
  id: Generated<number>;
  team_id: number;
  /** webhook_failing (5 consecutive failures) or webhook_stopped (15). */
  kind: string;
  webhook_id: number | null;
  message: string;
  created_at: number;
  dismissed_at: number | null;
}

export interface WebSessionsTable {
  token_hash: string;
  user_id: number;
  csrf_token: string;
  created_at: number;
  expires_at: number;
  /** Names the session in the sessions list (the token's hash is never shown). */
  handle: string | null;
  /** Browser and operating system names read from the user agent at sign-in; the agent itself is not kept. */
  browser: Generated<string>;
  os: Generated<string>;
  last_used_at: number | null;
}

export interface RecoveryCodesTable {
  user_id: number;
  code_hash: string;
  used_at: number | null;
}

/** One-time links and challenges: a password reset, an email change, the second step of a sign-in. */
export interface AccountTokensTable {
  token_hash: string;
  user_id: number;
  purpose: string;
  /** The address an email change moves to. */
  new_email: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface ImportsTable {
  id: Generated<number>;
  site_id: number;
  file_name: string;
  /** pending, running, completed, failed, deleted */
  status: string;
  from_date: string | null;
  to_date: string | null;
  rows: Generated<number>;
  files_done: Generated<number>;
  files_total: Generated<number>;
  error: string | null;
  error_file: string | null;
  error_line: number | null;
  created_by_user_id: number | null;
  created_at: number;
  finished_at: number | null;
  /** export (daily tables) or events (raw events through the pipeline) */
  kind: Generated<string>;
  /** An events import's report (JSON): lines, outcomes, rejected lines. */
  report: string | null;
}

/** Work that runs on one node at a time (src/stores/meta/leases.ts). */
export interface LeasesTable {
  /** `rollups`, `retention`, `purge`, `clickhouse-migrations`, `import:<id>`, `export:<id>`. */
  name: string;
  /** The node holding it (src/stores/meta/leases.ts NODE_ID). */
  holder: string;
  /** Epoch ms after which another node may take it. */
  expires_at: number;
  /** When this holder took it. */
  claimed_at: number;
}

/** Who gets a site's reports and notices (migration 0016). */
export interface EmailRecipientsTable {
  site_id: number;
  /** weekly, monthly (reports), spike, drop (traffic notices) */
  topic: string;
  /** Trimmed and lower-cased. */
  email: string;
  created_at: number;
}

/** A site's traffic notice thresholds, and when the last notice of each kind went out. */
export interface TrafficThresholdsTable {
  site_id: number;
  /** spike or drop */
  kind: string;
  threshold: number;
  last_noticed_at: number | null;
}

/** One report to one recipient for one period (src/reports/reportSender.ts). */
export interface ReportSendingsTable {
  site_id: number;
  /** weekly or monthly */
  kind: string;
  /** The period's first day, YYYY-MM-DD in the site's time zone. */
  period_start: string;
  email: string;
  /** sending (claimed, not yet accepted by the SMTP server), sent, failed (refused; retried), interrupted */
  state: string;
  attempts: number;
  claimed_at: number;
  sent_at: number | null;
  error: string | null;
}

/** A dated note on a site's graph (migration 0014); days are the site's local `YYYY-MM-DD`. */
export interface AnnotationsTable {
  id: Generated<number>;
  site_id: number;
  date: string;
  /** The last day of a span; null for a note on one day. */
  end_date: string | null;
  note: string;
  created_at: number;
  updated_at: number;
}
