import { sql } from 'kysely';
import type { SecretBox } from '../accounts/secretBox.js';
import { OLD_SECRET_VALIDITY_MS } from '../contracts/webhookPolicy.js';
import { badRequest, notFound } from '../errors.js';
import type { MetaDb } from '../stores/meta/database.js';
import type { WebhooksTable } from '../stores/meta/schema.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './outbox.js';
import { generateWebhookSecret } from './signing.js';
import { parseWebhookUrl } from './webhookUrl.js';

/** A registered endpoint as the API shows it: never its secret. */
export interface Webhook {
  id: number;
  teamId: number;
  url: string;
  /** Empty means every type. */
  eventTypes: WebhookEventType[];
  state: 'sending' | 'stopped';
  consecutiveFailures: number;
  stoppedAt: number | null;
  previousSecretExpiresAt: number | null;
  createdAt: number;
  updatedAt: number;
}

type WebhookRow = Omit<WebhooksTable, 'id' | 'consecutive_failures'> & { id: number; consecutive_failures: number };

export const splitEventTypes = (stored: string): WebhookEventType[] => stored.split(' ').filter(Boolean) as WebhookEventType[];

export function subscribes(storedEventTypes: string, type: string): boolean {
  const types = splitEventTypes(storedEventTypes);
  return types.length === 0 || (types as string[]).includes(type);
}

const toWebhook = (row: WebhookRow, now: number): Webhook => ({
  id: row.id,
  teamId: row.team_id,
  url: row.url,
  eventTypes: splitEventTypes(row.event_types),
  state: row.stopped_at === null ? 'sending' : 'stopped',
  consecutiveFailures: row.consecutive_failures,
  stoppedAt: row.stopped_at,
  previousSecretExpiresAt: row.previous_secret_expires_at !== null && row.previous_secret_expires_at > now ? row.previous_secret_expires_at : null,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** Subscribed types from the seven the spec lists; an empty list subscribes to all. */
export function parseEventTypes(input: unknown): WebhookEventType[] {
  const valid = WEBHOOK_EVENT_TYPES.join(', ');
  if (input === undefined) return [];
  if (!Array.isArray(input) || input.some((type) => typeof type !== 'string')) {
    throw badRequest('invalid_event_types', `"event_types" must be an array of event types (empty for all): ${valid}.`);
  }
  for (const type of input as string[]) {
    if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type)) {
      throw badRequest('invalid_event_type', `"${type}" is not a webhook event type; valid types are ${valid}.`);
    }
  }
  return [...new Set(input as WebhookEventType[])];
}

export interface WebhookSettings {
  url?: unknown;
  eventTypes?: unknown;
}

export async function createWebhook(
  db: MetaDb,
  input: { teamId: number } & WebhookSettings,
  options: { allowPrivate: boolean; secrets: SecretBox },
  now: number,
): Promise<{ webhook: Webhook; secret: string }> {
  const url = parseWebhookUrl(input.url, options);
  const eventTypes = parseEventTypes(input.eventTypes);
  const secret = generateWebhookSecret();
  const row = await db
    .insertInto('webhooks')
    .values((eb) => ({
      team_id: input.teamId,
      url,
      event_types: eventTypes.join(' '),
      secret: options.secrets.seal(secret),
      previous_secret: null,
      previous_secret_expires_at: null,
      stopped_at: null,
      // Read in the insert itself: every event written before this statement is behind the mark.
      subscribed_after_event_row_id: eb.selectFrom('webhook_events').select((sub) => sub.fn.coalesce(sub.fn.max('id'), sql.lit(0)).as('newest')),
      created_at: now,
      updated_at: now,
    }))
    .returningAll()
    .executeTakeFirstOrThrow();
  return { webhook: toWebhook(row, now), secret };
}

export async function listWebhooks(db: MetaDb, teamId: number, now: number): Promise<Webhook[]> {
  const rows = await db.selectFrom('webhooks').selectAll().where('team_id', '=', teamId).orderBy('id').execute();
  return rows.map((row) => toWebhook(row, now));
}

/** Missing and "another team's" look the same from outside. */
export async function requireWebhook(db: MetaDb, teamId: number, webhookId: number, now: number): Promise<Webhook> {
  const row = await db.selectFrom('webhooks').selectAll().where('id', '=', webhookId).where('team_id', '=', teamId).executeTakeFirst();
  if (!row) throw notFound(`This team has no webhook ${webhookId}.`);
  return toWebhook(row, now);
}

export async function updateWebhook(
  db: MetaDb,
  teamId: number,
  webhookId: number,
  changes: WebhookSettings,
  options: { allowPrivate: boolean },
  now: number,
): Promise<Webhook> {
  await requireWebhook(db, teamId, webhookId, now);
  const set: { url?: string; event_types?: string; updated_at: number } = { updated_at: now };
  if (changes.url !== undefined) set.url = parseWebhookUrl(changes.url, options);
  if (changes.eventTypes !== undefined) set.event_types = parseEventTypes(changes.eventTypes).join(' ');
  await db.updateTable('webhooks').set(set).where('id', '=', webhookId).where('team_id', '=', teamId).execute();
  return requireWebhook(db, teamId, webhookId, now);
}

/** Removes the endpoint with its deliveries and log. */
export async function deleteWebhook(db: MetaDb, teamId: number, webhookId: number, now: number): Promise<void> {
  await requireWebhook(db, teamId, webhookId, now);
  await db.deleteFrom('webhooks').where('id', '=', webhookId).where('team_id', '=', teamId).execute();
}

/** Back to sending with a clean failure count; deliveries cancelled while stopped stay cancelled. */
export async function reenableWebhook(db: MetaDb, teamId: number, webhookId: number, now: number): Promise<Webhook> {
  await requireWebhook(db, teamId, webhookId, now);
  await db
    .updateTable('webhooks')
    .set({ stopped_at: null, consecutive_failures: 0, updated_at: now })
    .where('id', '=', webhookId)
    .where('team_id', '=', teamId)
    .execute();
  return requireWebhook(db, teamId, webhookId, now);
}

/**
 * A new secret; the current one keeps being signed with for an hour so receivers can switch
 * without missing a delivery. A second rotation within that hour retires the oldest secret.
 */
export async function rotateWebhookSecret(
  db: MetaDb,
  teamId: number,
  webhookId: number,
  secrets: SecretBox,
  now: number,
): Promise<{ webhook: Webhook; secret: string; previousSecretValidUntil: number }> {
  await requireWebhook(db, teamId, webhookId, now);
  const secret = generateWebhookSecret();
  const previousSecretValidUntil = now + OLD_SECRET_VALIDITY_MS;
  await db
    .updateTable('webhooks')
    .set((eb) => ({ previous_secret: eb.ref('secret'), previous_secret_expires_at: previousSecretValidUntil, secret: secrets.seal(secret), updated_at: now }))
    .where('id', '=', webhookId)
    .where('team_id', '=', teamId)
    .execute();
  return { webhook: await requireWebhook(db, teamId, webhookId, now), secret, previousSecretValidUntil };
}

/** Secrets to sign with at `now`, newest first, as stored (sealed). */
export function liveSecrets(keys: { secret: string; previousSecret: string | null; previousSecretExpiresAt: number | null }, now: number): string[] {
  const previousLive = keys.previousSecret !== null && keys.previousSecretExpiresAt !== null && keys.previousSecretExpiresAt > now;
  return previousLive ? [keys.secret, keys.previousSecret!] : [keys.secret];
}
