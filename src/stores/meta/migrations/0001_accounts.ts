import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { columnTypes, type MetaDialect, primaryKey } from './columns.js';

/** Users, teams, memberships, sites, API keys and their hourly usage windows. */
export async function up(db: Kysely<unknown>, dialect: MetaDialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('users')
    .addColumn('id', t.id, primaryKey(dialect))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_normalized', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('teams')
    .addColumn('id', t.id, primaryKey(dialect))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('locked_at', t.bigint)
    .addColumn('locked_reason', 'text')
    .addColumn('collection_stopped_at', t.bigint)
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('memberships')
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('memberships_pk', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('memberships_user').on('memberships').column('user_id').execute();
  await db.schema
    .createTable('sites')
    .addColumn('id', t.id, primaryKey(dialect))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id'))
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addColumn('updated_at', t.bigint, (c) => c.notNull())
    .addColumn('deleted_at', t.bigint)
    .execute();
  // A deleted site frees its domain, so uniqueness holds among live sites only.
  await db.schema.createIndex('sites_live_domain').on('sites').column('domain').unique().where(sql.ref('deleted_at'), 'is', null).execute();
  await db.schema.createIndex('sites_team').on('sites').column('team_id').execute();
  await db.schema
    .createTable('api_keys')
    .addColumn('id', t.id, primaryKey(dialect))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('hourly_limit', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addColumn('last_used_at', t.bigint)
    .addColumn('revoked_at', t.bigint)
    .execute();
  await db.schema.createIndex('api_keys_team').on('api_keys').column('team_id').execute();
  await db.schema
    .createTable('api_key_usage')
    .addColumn('api_key_id', 'integer', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('window_start', t.bigint, (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('api_key_usage_pk', ['api_key_id', 'window_start'])
    .execute();
}
