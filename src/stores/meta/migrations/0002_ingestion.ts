import type { Kysely } from 'kysely';
import { columnTypes, type MetaDialect, ownedTable, required } from './columns.js';

/** Daily visitor-id salts, per-site shields and which classifications a site puts back into reports. */
export async function up(db: Kysely<unknown>, dialect: MetaDialect): Promise<void> {
  const t = columnTypes(dialect);
  // One row per UTC day; only today's and yesterday's ever exist.
  await db.schema
    .createTable('salts')
    .addColumn('day', 'text', (c) => c.primaryKey())
    .addColumn('salt', 'text', required)
    .addColumn('created_at', t.bigint, required)
    .execute();
  await ownedTable(db, dialect, 'site_shields', 'site')
    .addColumn('kind', 'text', required)
    .addColumn('value', 'text', required)
    .addColumn('description', 'text')
    .addColumn('created_at', t.bigint, required)
    .addUniqueConstraint('site_shields_unique', ['site_id', 'kind', 'value'])
    .execute();
  await db.schema
    .alterTable('sites')
    .addColumn('included_classifications', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}
