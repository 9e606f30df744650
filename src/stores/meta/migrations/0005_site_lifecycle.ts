import type { Kysely } from 'kysely';
import { columnTypes, type MetaDialect } from './columns.js';

/**
 * The per-site tracker options the snippet is rendered from, and when a deleted site's
 * analytics rows were purged (a deleted site keeps its row so ingestion can say `site_deleted`).
 */
export async function up(db: Kysely<unknown>, dialect: MetaDialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .alterTable('sites')
    .addColumn('tracker_script_configuration', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.alterTable('sites').addColumn('purged_at', t.bigint).execute();
}
