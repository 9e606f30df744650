import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { belongsTo, columnTypes, grantTable, type MetaDialect, primaryKey, required } from './columns.js';

/** Users, teams, memberships, sites, API keys and their hourly usage windows. */
export async function up(db: Kysely<unknown>, dialect: MetaDialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('users')
    .addColumn('id', t.id, primaryKey(dialect))
    .addColumn('email', 'text', required)
    .addColumn('email_normalized', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', required)
    .addColumn('password_hash', 'text')
    .addColumn('created_at', t.bigint, required)
    .execute();
  await db.schema
    .createTable('teams')
    .addColumn('id', t.id, primaryKey(dialect))
    .addColumn('name', 'text', required)
    .addColumn('locked_at', t.bigint)
    .addColumn('locked_reason', 'text')
    .addColumn('collection_stopped_at', t.bigint)
    .addColumn('created_at', t.bigint, required)
    .execute();
  await grantTable(db, dialect, 'memberships', 'team').execute();
  await db.schema.createIndex('memberships_user').on('memberships').column('user_id').execute();
  await db.schema
    .createTable('sites')
    .addColumn('id', t.id, primaryKey(dialect))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id'))
    .addColumn('domain', 'text', required)
    .addColumn('timezone', 'text', required)
    .addColumn('created_at', t.bigint, required)
    .addColumn('updated_at', t.bigint, required)
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
    .addColumn('name', 'text', required)
    .addColumn('key_prefix', 'text', required)
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('scopes', 'text', required)
    .addColumn('hourly_limit', 'integer', required)
    .addColumn('created_at', t.bigint, required)
    .addColumn('last_used_at', t.bigint)
    .addColumn('revoked_at', t.bigint)
    .execute();
  await db.schema.createIndex('api_keys_team').on('api_keys').column('team_id').execute();
  await db.schema
    .createTable('api_key_usage')
    .addColumn('api_key_id', 'integer', belongsTo('api_keys'))
    .addColumn('window_start', t.bigint, required)
    .addColumn('count', 'integer', required)
    .addPrimaryKeyConstraint('api_key_usage_pk', ['api_key_id', 'window_start'])
    .execute();
}
