import type { Kysely } from 'kysely';
import { belongsTo, columnTypes, type MetaDialect, primaryKey, required } from './columns.js';

/**
 * The outbox: events that webhooks announce, written in the same transaction as the change
 * that caused them, so an announcement exists exactly when its change does.
 */
export async function up(db: Kysely<unknown>, dialect: MetaDialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('webhook_events')
    .addColumn('id', t.bigId, primaryKey(dialect))
    .addColumn('event_id', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'text', required)
    .addColumn('team_id', 'integer', belongsTo('teams'))
    .addColumn('site_id', 'integer')
    .addColumn('payload', 'text', required)
    .addColumn('created_at', t.bigint, required)
    .addColumn('dispatched_at', t.bigint)
    .execute();
  await db.schema.createIndex('webhook_events_pending').on('webhook_events').columns(['dispatched_at', 'id']).execute();
}
