import type { Kysely } from 'kysely';
import { columnTypes, type MetaDialect, ownedTable, required } from './columns.js';

/**
 * Imports of another export (Plausible's CSV format, or ours) into a site's imported data: one row
 * per upload, its progress and its outcome. The rows themselves live in the event store's daily
 * tables under this id (`import_id`).
 */
export async function up(db: Kysely<unknown>, dialect: MetaDialect): Promise<void> {
  const t = columnTypes(dialect);
  await ownedTable(db, dialect, 'imports', 'site')
    .addColumn('file_name', 'text', required)
    .addColumn('status', 'text', required)
    .addColumn('from_date', 'text')
    .addColumn('to_date', 'text')
    .addColumn('rows', t.bigint, (c) => c.notNull().defaultTo(0))
    .addColumn('files_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('files_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('error_file', 'text')
    .addColumn('error_line', 'integer')
    .addColumn('created_by_user_id', 'integer')
    .addColumn('created_at', t.bigint, required)
    .addColumn('finished_at', t.bigint)
    .execute();
  await db.schema.createIndex('imports_site').on('imports').column('site_id').execute();
}
