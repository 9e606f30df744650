import type { Kysely } from 'kysely';
import { columnTypes, type MetaDialect, primaryKey } from './columns.js';

/**
 * Goals, funnels, custom-property allow-lists, shared links, invitations, ownership transfers,
 * and the previous domain a renamed site still answers to during its transition period.
 */
export async function up(db: Kysely<unknown>, dialect: MetaDialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema.alterTable('sites').addColumn('previous_domain', 'text').execute();
  await db.schema.alterTable('sites').addColumn('domain_changed_at', t.bigint).execute();

  // Exactly one of event_name / page_path is set; page_path may hold * wildcards.
  await db.schema
    .createTable('goals')
    .addColumn('id', t.id, primaryKey(dialect))
    .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('event_name', 'text')
    .addColumn('page_path', 'text')
    .addColumn('scroll_threshold', 'integer', (c) => c.notNull().defaultTo(-1))
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('currency', 'text')
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addUniqueConstraint('goals_display_name_unique', ['site_id', 'display_name'])
    .execute();
  await db.schema.createIndex('goals_site').on('goals').column('site_id').execute();

  await db.schema
    .createTable('funnels')
    .addColumn('id', t.id, primaryKey(dialect))
    .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addUniqueConstraint('funnels_name_unique', ['site_id', 'name'])
    .execute();
  await db.schema
    .createTable('funnel_steps')
    .addColumn('funnel_id', 'integer', (c) => c.notNull().references('funnels.id').onDelete('cascade'))
    .addColumn('step_order', 'integer', (c) => c.notNull())
    .addColumn('goal_id', 'integer', (c) => c.notNull().references('goals.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('funnel_steps_pk', ['funnel_id', 'step_order'])
    .execute();

  await db.schema
    .createTable('custom_props')
    .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('property', 'text', (c) => c.notNull())
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('custom_props_pk', ['site_id', 'property'])
    .execute();

  await db.schema
    .createTable('shared_links')
    .addColumn('id', t.id, primaryKey(dialect))
    .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text')
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addUniqueConstraint('shared_links_name_unique', ['site_id', 'name'])
    .execute();

  // Site guests carry site_id; team memberships leave it null. Only the token's hash is stored.
  await db.schema
    .createTable('invitations')
    .addColumn('id', t.id, primaryKey(dialect))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('site_id', 'integer', (c) => c.references('sites.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_normalized', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by_user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addColumn('expires_at', t.bigint, (c) => c.notNull())
    .addColumn('accepted_at', t.bigint)
    .addColumn('revoked_at', t.bigint)
    .execute();
  await db.schema.createIndex('invitations_team').on('invitations').columns(['team_id', 'email_normalized']).execute();

  // Site guests once accepted (team members live in memberships).
  await db.schema
    .createTable('site_guests')
    .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('site_guests_pk', ['site_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('ownership_transfers')
    .addColumn('id', t.id, primaryKey(dialect))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('from_user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('to_email_normalized', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addColumn('expires_at', t.bigint, (c) => c.notNull())
    .addColumn('accepted_at', t.bigint)
    .addColumn('revoked_at', t.bigint)
    .execute();
}
