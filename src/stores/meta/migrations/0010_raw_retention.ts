import type { Kysely } from 'kysely';
import { columnTypes, type MetaDialect } from './columns.js';

/**
 * Optional raw-event retention per site (docs/rollups.md, Retention): how many days of raw events
 * a site keeps once their days are rolled up (null: forever), and from which instant its raw
 * events are still whole (null: none was ever deleted), which the query engine and the export read.
 */
export async function up(db: Kysely<unknown>, dialect: MetaDialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema.alterTable('sites').addColumn('raw_retention_days', 'integer').execute();
  await db.schema.alterTable('sites').addColumn('raw_events_from', t.bigint).execute();
}
