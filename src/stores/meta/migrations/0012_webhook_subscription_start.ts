import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { columnTypes, type MetaDialect } from './columns.js';

/**
 * Where in the outbox a webhook's subscription starts: the newest `webhook_events` row when it
 * was registered; it hears the events after that row (docs/webhooks.md, Subscriptions). Row ids
 * follow the order events were written, where their times can tie (one injected instant, one
 * millisecond) or disagree (clocks of several nodes). Existing webhooks start after the events
 * older than their registration, which is what comparing times gave them.
 */
export async function up(db: Kysely<unknown>, dialect: MetaDialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .alterTable('webhooks')
    .addColumn('subscribed_after_event_row_id', t.bigint, (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`UPDATE webhooks SET subscribed_after_event_row_id = COALESCE((SELECT MAX(e.id) FROM webhook_events e WHERE e.created_at < webhooks.created_at), 0)`.execute(
    db,
  );
}
