import type { Kysely } from 'kysely';
import { columnTypes, type MetaDialect, required } from './columns.js';

/**
 * Leases for work that must run on one node at a time (src/stores/meta/leases.ts): one row per
 * named piece of work (`rollups`, `import:12`, …), the node holding it and until when.
 */
export async function up(db: Kysely<unknown>, dialect: MetaDialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', required)
    .addColumn('expires_at', t.bigint, required)
    .addColumn('claimed_at', t.bigint, required)
    .execute();
}
