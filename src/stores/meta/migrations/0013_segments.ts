import type { Kysely } from 'kysely';
import { columnTypes, type MetaDialect, ownedTable, required } from './columns.js';

/**
 * Saved segments (docs/dashboard.md "Segments"): a named set of dashboard filters, personal to its
 * owner or shared with everyone who sees the site. `filters` holds the v2 filter list as JSON and
 * `labels` how the dashboard shows its values (a country code's name). A personal segment goes
 * with its owner; a shared one stays with the site when its author leaves.
 */
export async function up(db: Kysely<unknown>, dialect: MetaDialect): Promise<void> {
  const t = columnTypes(dialect);
  await ownedTable(db, dialect, 'segments', 'site')
    .addColumn('owner_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('name', 'text', required)
    .addColumn('type', 'text', required)
    .addColumn('filters', 'text', required)
    .addColumn('labels', 'text', required)
    .addColumn('created_at', t.bigint, required)
    .addColumn('updated_at', t.bigint, required)
    .execute();
  await db.schema.createIndex('segments_site').on('segments').column('site_id').execute();
}
