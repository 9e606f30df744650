import type { Kysely } from 'kysely';
import { belongsTo, columnTypes, type MetaDialect, required } from './columns.js';

/**
 * Sign-in sessions of the web app, kept server side so they can be revoked. The cookie holds a
 * random token; only its SHA-256 is stored (a leaked table signs nobody in).
 */
export async function up(db: Kysely<unknown>, dialect: MetaDialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('web_sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', belongsTo('users'))
    .addColumn('csrf_token', 'text', required)
    .addColumn('created_at', t.bigint, required)
    .addColumn('expires_at', t.bigint, required)
    .execute();
  await db.schema.createIndex('web_sessions_user').on('web_sessions').column('user_id').execute();
}
