import type { Kysely } from 'kysely';
import { columnTypes, type MetaDialect, primaryKey } from './columns.js';

/** Daily visitor-id salts, per-site shields and which classifications a site puts back into reports. */
export async function up(db: Kysely<unknown>, dialect: MetaDialect): Promise<void> {
  const t = columnTypes(dialect);
  // One row per UTC day; only today's and yesterday's ever exist.
  await db.schema
    .createTable('salts')
    .addColumn('day', 'text', (c) => c.primaryKey())
    .addColumn('salt', 'text', (c) => c.notNull())
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('site_shields')
    .addColumn('id', t.id, primaryKey(dialect))
    .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addUniqueConstraint('site_shields_unique', ['site_id', 'kind', 'value'])
    .execute();
  await db.schema
    .alterTable('sites')
    .addColumn('included_classifications', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}
