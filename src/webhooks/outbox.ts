import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { SentWebhookEventType } from '../contracts/webhookEventTypes.js';
import type { MetaSchema } from '../stores/meta/schema.js';

export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../contracts/webhookEventTypes.js';

export interface OutboxEvent {
  /** Only a type the one list marks sent: publishing another fails to compile until the list says so. */
  type: SentWebhookEventType;
  teamId: number;
  siteId: number | null;
  data: Record<string, unknown>;
}

/**
 * Records an event for webhook delivery. Pass the transaction that makes the change, so the
 * event is committed together with it or not at all; the webhook worker fans it out later.
 * A locked team's event is recorded as already dispatched: withheld, never replayed on unlock.
 */
export async function publishEvent(db: Kysely<MetaSchema>, event: OutboxEvent, now: number): Promise<string> {
  const eventId = `evt_${randomUUID().replaceAll('-', '')}`;
  const team = await db.selectFrom('teams').select('locked_at').where('id', '=', event.teamId).executeTakeFirst();
  await db
    .insertInto('webhook_events')
    .values({
      event_id: eventId,
      type: event.type,
      team_id: event.teamId,
      site_id: event.siteId,
      payload: JSON.stringify(event.data),
      created_at: now,
      dispatched_at: team?.locked_at != null ? now : null,
    })
    .execute();
  return eventId;
}
