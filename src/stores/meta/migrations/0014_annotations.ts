import type { Kysely } from 'kysely';
import { columnTypes, type MetaDialect, ownedTable, required } from './columns.js';

/**
 * Annotations: a dated note on a site's graph (docs/dashboard.md "Annotations"), a single day or,
 * with `end_date`, a span of days. Days are the site's local calendar days as `YYYY-MM-DD` text,
 * which sorts and compares as dates do in both dialects.
 */
export async function up(db: Kysely<unknown>, dialect: MetaDialect): Promise<void> {
  const t = columnTypes(dialect);
  await ownedTable(db, dialect, 'annotations', 'site')
    .addColumn('date', 'text', required)
    .addColumn('end_date', 'text')
    .addColumn('note', 'text', required)
    .addColumn('created_at', t.bigint, required)
    .addColumn('updated_at', t.bigint, required)
    .execute();
  await db.schema.createIndex('annotations_site_date').on('annotations').columns(['site_id', 'date']).execute();
}
