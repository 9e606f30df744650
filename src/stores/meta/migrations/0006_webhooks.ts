import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { belongsTo, columnTypes, type MetaDialect, ownedTable, primaryKey, required } from './columns.js';

/**
 * Webhook endpoints, their deliveries (one row per event and endpoint, or per manual
 * redelivery; its id is the `Svc-Delivery` header), the log of every attempt, and the notices
 * team owners see when an endpoint looks broken.
 */
export async function up(db: Kysely<unknown>, dialect: MetaDialect): Promise<void> {
  const t = columnTypes(dialect);
  await ownedTable(db, dialect, 'webhooks', 'team')
    .addColumn('url', 'text', required)
    // Space-separated; empty means every type.
    .addColumn('event_types', 'text', required)
    .addColumn('secret', 'text', required)
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_expires_at', t.bigint)
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stopped_at', t.bigint)
    .addColumn('created_at', t.bigint, required)
    .addColumn('updated_at', t.bigint, required)
    .execute();
  await db.schema.createIndex('webhooks_team').on('webhooks').column('team_id').execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', t.bigId, primaryKey(dialect))
    .addColumn('webhook_id', 'integer', belongsTo('webhooks'))
    .addColumn('event_row_id', t.bigint, belongsTo('webhook_events'))
    .addColumn('redelivery_of', t.bigint)
    .addColumn('state', 'text', required)
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', t.bigint)
    .addColumn('claimed_until', t.bigint)
    .addColumn('claim_token', 'text')
    .addColumn('created_at', t.bigint, required)
    .addColumn('completed_at', t.bigint)
    .execute();
  // The worker's poll: queued rows by due time.
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['next_attempt_at']).where(sql.ref('state'), '=', 'queued').execute();
  await db.schema.createIndex('webhook_deliveries_webhook').on('webhook_deliveries').column('webhook_id').execute();
  await db.schema.createIndex('webhook_deliveries_claim').on('webhook_deliveries').column('claim_token').execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', t.bigId, primaryKey(dialect))
    .addColumn('delivery_id', t.bigint, belongsTo('webhook_deliveries'))
    .addColumn('webhook_id', 'integer', belongsTo('webhooks'))
    .addColumn('attempted_at', t.bigint, required)
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('error_detail', 'text')
    .addColumn('duration_ms', 'integer', required)
    .addColumn('response_body', 'text', required)
    .addColumn('response_truncated', 'integer', required)
    .execute();
  await db.schema.createIndex('webhook_attempts_log').on('webhook_attempts').columns(['webhook_id', 'id']).execute();

  await ownedTable(db, dialect, 'notices', 'team')
    .addColumn('kind', 'text', required)
    .addColumn('webhook_id', 'integer', (c) => c.references('webhooks.id').onDelete('cascade'))
    .addColumn('message', 'text', required)
    .addColumn('created_at', t.bigint, required)
    .addColumn('dismissed_at', t.bigint)
    .execute();
  await db.schema.createIndex('notices_team').on('notices').columns(['team_id', 'id']).execute();
}
