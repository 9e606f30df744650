import type { Kysely } from 'kysely';

/**
 * Raw-event (NDJSON) imports become background jobs beside the export imports: `kind` tells them
 * apart (`export`: daily tables under the import's id; `events`: replayed through the collection
 * pipeline), `report` keeps an events import's outcome counts and rejected lines as JSON.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('imports')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('export'))
    .execute();
  await db.schema.alterTable('imports').addColumn('report', 'text').execute();
}
