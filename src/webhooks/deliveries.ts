import { randomUUID } from 'node:crypto';
import { FAILING_THRESHOLD, nextRetryAt, STOP_THRESHOLD } from '../contracts/webhookPolicy.js';
import { conflict, notFound } from '../errors.js';
import type { MetaDb } from '../stores/meta/database.js';
import type { MetaDialect } from '../stores/meta/migrations/index.js';
import type { WebhookDeliveryState } from '../stores/meta/schema.js';
import { type Notice, type NoticeKind, recordNotice, webhookNoticeMessage } from './notices.js';
import type { AttemptOutcome } from './sender.js';
import { requireWebhook, subscribes } from './webhooks.js';

/**
 * The delivery queue in the metadata store: fan-out of outbox events into one delivery per
 * subscribed endpoint, claims that give each due delivery to exactly one worker, and the
 * bookkeeping of every attempt (log, retry schedule, endpoint health).
 */

const FAN_OUT_BATCH = 100;

/**
 * Turns pending outbox events into queued deliveries. Each event is taken in its own
 * transaction that first marks it dispatched, so two processes never fan out the same event.
 * A locked team's events are marked dispatched with no deliveries: withheld for good.
 */
export async function fanOutEvents(db: MetaDb, now: number): Promise<number> {
  let deliveries = 0;
  for (;;) {
    const pending = await db
      .selectFrom('webhook_events')
      .select(['id', 'team_id', 'type'])
      .where('dispatched_at', 'is', null)
      .orderBy('id')
      .limit(FAN_OUT_BATCH)
      .execute();
    for (const event of pending) {
      deliveries += await db.transaction().execute(async (trx) => {
        // Write first: on SQLite this takes the write lock before anything is read.
        const taken = await trx
          .updateTable('webhook_events')
          .set({ dispatched_at: now })
          .where('id', '=', event.id)
          .where('dispatched_at', 'is', null)
          .executeTakeFirst();
        if (Number(taken.numUpdatedRows) === 0) return 0;
        const team = await trx.selectFrom('teams').select('locked_at').where('id', '=', event.team_id).executeTakeFirst();
        if (!team || team.locked_at !== null) return 0;
        // An endpoint hears of what happens after it was registered, not before. Outbox order
        // decides, not times: an event written just before the registration can carry the same
        // time (one millisecond, an injected clock) or a later one (another node's clock).
        const hooks = await trx
          .selectFrom('webhooks')
          .select(['id', 'event_types'])
          .where('team_id', '=', event.team_id)
          .where('stopped_at', 'is', null)
          .where('subscribed_after_event_row_id', '<', event.id)
          .execute();
        const subscribed = hooks.filter((hook) => subscribes(hook.event_types, event.type));
        if (subscribed.length === 0) return 0;
        await trx
          .insertInto('webhook_deliveries')
          .values(
            subscribed.map((hook) => ({
              webhook_id: hook.id,
              event_row_id: event.id,
              redelivery_of: null,
              state: 'queued' as const,
              next_attempt_at: now,
              claimed_until: null,
              claim_token: null,
              created_at: now,
              completed_at: null,
            })),
          )
          .execute();
        return subscribed.length;
      });
    }
    if (pending.length < FAN_OUT_BATCH) return deliveries;
  }
}

/**
 * Leases up to `limit` due deliveries to this worker in one statement. The re-checked
 * condition makes a row go to one claimer only; on PostgreSQL `SKIP LOCKED` also keeps
 * concurrent workers from waiting on each other's rows. The candidates sit in a WITH clause
 * because PostgreSQL evaluates that once, where an IN sub-select may be re-run per row and
 * so exceed the limit.
 */
export async function claimDueDeliveries(
  db: MetaDb,
  dialect: MetaDialect,
  now: number,
  options: { limit: number; leaseMs: number },
): Promise<{ token: string; ids: number[]; perWebhook: number[][] }> {
  const token = randomUUID();
  await db
    .with('due', (qb) => {
      const due = qb
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('state', '=', 'queued')
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(options.limit);
      return dialect === 'postgres' ? due.forUpdate().skipLocked() : due;
    })
    .updateTable('webhook_deliveries')
    .set({ claimed_until: now + options.leaseMs, claim_token: token })
    .where('id', 'in', (eb) => eb.selectFrom('due').select('due.id'))
    .where('state', '=', 'queued')
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .execute();
  const rows = await db.selectFrom('webhook_deliveries').select(['id', 'webhook_id']).where('claim_token', '=', token).orderBy('id').execute();
  const perWebhook = new Map<number, number[]>();
  for (const row of rows) perWebhook.set(row.webhook_id, [...(perWebhook.get(row.webhook_id) ?? []), row.id]);
  return { token, ids: rows.map((row) => row.id), perWebhook: [...perWebhook.values()] };
}

/** Everything one attempt needs, read after the claim so it reflects the latest settings. */
export interface DeliveryJob {
  deliveryId: number;
  attempts: number;
  webhookId: number;
  teamId: number;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: number | null;
  webhookStopped: boolean;
  teamLocked: boolean;
  event: { eventId: string; type: string; siteId: number | null; payload: string; createdAt: number };
}

export async function loadDeliveryJob(db: MetaDb, deliveryId: number, token: string): Promise<DeliveryJob | undefined> {
  const row = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_row_id')
    .innerJoin('teams as t', 't.id', 'w.team_id')
    .select([
      'd.id',
      'd.attempts',
      'w.id as webhook_id',
      'w.team_id',
      'w.url',
      'w.secret',
      'w.previous_secret',
      'w.previous_secret_expires_at',
      'w.stopped_at',
      't.locked_at',
      'e.event_id',
      'e.type',
      'e.site_id',
      'e.payload',
      'e.created_at',
    ])
    .where('d.id', '=', deliveryId)
    .where('d.claim_token', '=', token)
    .where('d.state', '=', 'queued')
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    deliveryId: row.id,
    attempts: row.attempts,
    webhookId: row.webhook_id,
    teamId: row.team_id,
    url: row.url,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt: row.previous_secret_expires_at,
    webhookStopped: row.stopped_at !== null,
    teamLocked: row.locked_at !== null,
    event: { eventId: row.event_id, type: row.type, siteId: row.site_id, payload: row.payload, createdAt: row.created_at },
  };
}

/** Ends a delivery without an attempt: withheld (team locked) or cancelled (endpoint stopped). */
export async function closeUnattempted(db: MetaDb, job: DeliveryJob, token: string, state: 'withheld' | 'cancelled', now: number): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ state, next_attempt_at: null, claimed_until: null, completed_at: now })
    .where('id', '=', job.deliveryId)
    .where('claim_token', '=', token)
    .execute();
}

/**
 * Logs one attempt and moves the delivery on (succeeded, queued for retry, failed); a failure
 * counts against the endpoint, a success clears its count. Returns the notices raised, for
 * the caller to announce once they are committed.
 */
export async function recordAttempt(
  db: MetaDb,
  job: DeliveryJob,
  token: string,
  outcome: AttemptOutcome,
  now: number,
): Promise<{ state: WebhookDeliveryState; notices: Notice[] }> {
  return db.transaction().execute(async (trx) => {
    const attempts = job.attempts + 1;
    const retryAt = outcome.ok ? null : nextRetryAt(attempts, now);
    const state: WebhookDeliveryState = outcome.ok ? 'succeeded' : retryAt === null ? 'failed' : 'queued';
    await trx
      .updateTable('webhook_deliveries')
      .set({ state, attempts, next_attempt_at: retryAt, claimed_until: null, completed_at: state === 'queued' ? null : now })
      .where('id', '=', job.deliveryId)
      .where('claim_token', '=', token)
      .execute();
    await trx
      .insertInto('webhook_attempts')
      .values({
        delivery_id: job.deliveryId,
        webhook_id: job.webhookId,
        attempted_at: now,
        status_code: outcome.statusCode,
        error: outcome.error,
        error_detail: outcome.detail,
        duration_ms: outcome.durationMs,
        response_body: outcome.responseBody,
        response_truncated: outcome.responseTruncated ? 1 : 0,
      })
      .execute();

    if (outcome.ok) {
      await trx.updateTable('webhooks').set({ consecutive_failures: 0 }).where('id', '=', job.webhookId).execute();
      return { state, notices: [] };
    }
    const counted = await trx
      .updateTable('webhooks')
      .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1) }))
      .where('id', '=', job.webhookId)
      .returning(['consecutive_failures', 'url'])
      .executeTakeFirst();
    if (!counted) return { state, notices: [] };
    const notice = (kind: NoticeKind) =>
      recordNotice(trx, { teamId: job.teamId, kind, webhookId: job.webhookId, message: webhookNoticeMessage(kind, counted.url) }, now);
    const notices: Notice[] = [];
    if (counted.consecutive_failures === FAILING_THRESHOLD) notices.push(await notice('webhook_failing'));
    if (counted.consecutive_failures >= STOP_THRESHOLD) {
      const stopped = await trx
        .updateTable('webhooks')
        .set({ stopped_at: now })
        .where('id', '=', job.webhookId)
        .where('stopped_at', 'is', null)
        .executeTakeFirst();
      if (Number(stopped.numUpdatedRows) === 1) notices.push(await notice('webhook_stopped'));
    }
    return { state, notices };
  });
}

/** A manual redelivery: a new row (new `Svc-Delivery`) for the same event, due at once. */
export async function redeliver(db: MetaDb, teamId: number, deliveryId: number, now: number): Promise<{ id: number; webhookId: number; eventId: string }> {
  const original = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_row_id')
    .select(['d.webhook_id', 'd.event_row_id', 'e.event_id'])
    .where('d.id', '=', deliveryId)
    .where('w.team_id', '=', teamId)
    .executeTakeFirst();
  if (!original) throw notFound(`This team has no webhook delivery ${deliveryId}.`);
  const webhook = await requireWebhook(db, teamId, original.webhook_id, now);
  if (webhook.state === 'stopped') {
    throw conflict('webhook_stopped', `Webhook ${webhook.id} is stopped after repeated failures; re-enable it before redelivering.`);
  }
  const row = await db
    .insertInto('webhook_deliveries')
    .values({
      webhook_id: original.webhook_id,
      event_row_id: original.event_row_id,
      redelivery_of: deliveryId,
      state: 'queued',
      next_attempt_at: now,
      claimed_until: null,
      claim_token: null,
      created_at: now,
      completed_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, webhookId: original.webhook_id, eventId: original.event_id };
}

/** One line of a webhook's delivery log: an attempt. */
export interface AttemptLogEntry {
  id: number;
  deliveryId: number;
  deliveryState: WebhookDeliveryState;
  redeliveryOf: number | null;
  eventId: string;
  eventType: string;
  attemptedAt: number;
  statusCode: number | null;
  error: string | null;
  errorDetail: string | null;
  durationMs: number;
  responseBody: string;
  responseTruncated: boolean;
}

/** A webhook's attempts, newest first; `beforeId` continues from the last entry of a page. */
export async function listAttempts(
  db: MetaDb,
  teamId: number,
  webhookId: number,
  page: { limit: number; beforeId?: number | undefined },
  now: number,
): Promise<AttemptLogEntry[]> {
  await requireWebhook(db, teamId, webhookId, now);
  let query = db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_row_id')
    .select([
      'a.id',
      'a.delivery_id',
      'd.state',
      'd.redelivery_of',
      'e.event_id',
      'e.type',
      'a.attempted_at',
      'a.status_code',
      'a.error',
      'a.error_detail',
      'a.duration_ms',
      'a.response_body',
      'a.response_truncated',
    ])
    .where('a.webhook_id', '=', webhookId);
  if (page.beforeId !== undefined) query = query.where('a.id', '<', page.beforeId);
  const rows = await query.orderBy('a.id', 'desc').limit(page.limit).execute();
  return rows.map((row) => ({
    id: row.id,
    deliveryId: row.delivery_id,
    deliveryState: row.state,
    redeliveryOf: row.redelivery_of,
    eventId: row.event_id,
    eventType: row.type,
    attemptedAt: row.attempted_at,
    statusCode: row.status_code,
    error: row.error,
    errorDetail: row.error_detail,
    durationMs: row.duration_ms,
    responseBody: row.response_body,
    responseTruncated: row.response_truncated === 1,
  }));
}
