import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { belongsTo, columnTypes, type MetaDialect, required } from './columns.js';

/**
 * Accounts a team runs on its own (docs/settings.md, Account):
 * - two-factor sign-in: the user's TOTP secret, sealed (src/accounts/secretBox.ts), when it was
 *   turned on (null while being set up), and the last time step used (a code is good once);
 * - recovery codes, hashed, each used once;
 * - one-time links and challenges (a password reset, an email change, the second step of a
 *   sign-in), each stored as the SHA-256 of its token, with its expiry and use;
 * - what the sessions list shows: a handle to name a session by (never its token), the browser
 *   and operating system names read from the user agent at sign-in, and the last use.
 */
export async function up(db: Kysely<unknown>, dialect: MetaDialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema.alterTable('users').addColumn('totp_secret', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_enabled_at', t.bigint).execute();
  await db.schema.alterTable('users').addColumn('totp_last_step', t.bigint).execute();
  await db.schema
    .createTable('recovery_codes')
    .addColumn('user_id', 'integer', belongsTo('users'))
    .addColumn('code_hash', 'text', required)
    .addColumn('used_at', t.bigint)
    .addPrimaryKeyConstraint('recovery_codes_pk', ['user_id', 'code_hash'])
    .execute();
  await db.schema
    .createTable('account_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', belongsTo('users'))
    .addColumn('purpose', 'text', required)
    .addColumn('new_email', 'text')
    .addColumn('created_at', t.bigint, required)
    .addColumn('expires_at', t.bigint, required)
    .addColumn('used_at', t.bigint)
    .execute();
  await db.schema.createIndex('account_tokens_user').on('account_tokens').columns(['user_id', 'purpose']).execute();
  await db.schema.alterTable('web_sessions').addColumn('handle', 'text').execute();
  await db.schema
    .alterTable('web_sessions')
    .addColumn('browser', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('web_sessions')
    .addColumn('os', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('web_sessions').addColumn('last_used_at', t.bigint).execute();
  // Sessions from before have no handle: a prefix of their token's hash names them (it opens nothing).
  await sql`UPDATE web_sessions SET handle = substr(token_hash, 1, 24), last_used_at = created_at`.execute(db);
  await db.schema.createIndex('web_sessions_handle').on('web_sessions').column('handle').unique().execute();
}
