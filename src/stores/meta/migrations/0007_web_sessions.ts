import type { Kysely } from 'kysely';
import { columnTypes, type MetaDialect } from './columns.js';

/**
 * Sign-in sessions of the web app, kept server side so they can be revoked. The cookie holds a
 * random token; only its SHA-256 is stored (a leaked table signs nobody in).
 */
export async function up(db: Kysely<unknown>, dialect: MetaDialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('web_sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addColumn('expires_at', t.bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('web_sessions_user').on('web_sessions').column('user_id').execute();
}
