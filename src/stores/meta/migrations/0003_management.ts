import type { Kysely } from 'kysely';
import { belongsTo, columnTypes, grantTable, type MetaDialect, offerTimes, ownedTable, required } from './columns.js';

/**
 * Goals, funnels, custom-property allow-lists, shared links, invitations, ownership transfers,
 * and the previous domain a renamed site still answers to during its transition period.
 */
export async function up(db: Kysely<unknown>, dialect: MetaDialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema.alterTable('sites').addColumn('previous_domain', 'text').execute();
  await db.schema.alterTable('sites').addColumn('domain_changed_at', t.bigint).execute();

  // Exactly one of event_name / page_path is set; page_path may hold * wildcards.
  await ownedTable(db, dialect, 'goals', 'site')
    .addColumn('event_name', 'text')
    .addColumn('page_path', 'text')
    .addColumn('scroll_threshold', 'integer', (c) => c.notNull().defaultTo(-1))
    .addColumn('display_name', 'text', required)
    .addColumn('currency', 'text')
    .addColumn('created_at', t.bigint, required)
    .addUniqueConstraint('goals_display_name_unique', ['site_id', 'display_name'])
    .execute();
  await db.schema.createIndex('goals_site').on('goals').column('site_id').execute();

  await ownedTable(db, dialect, 'funnels', 'site')
    .addColumn('name', 'text', required)
    .addColumn('created_at', t.bigint, required)
    .addUniqueConstraint('funnels_name_unique', ['site_id', 'name'])
    .execute();
  await db.schema
    .createTable('funnel_steps')
    .addColumn('funnel_id', 'integer', belongsTo('funnels'))
    .addColumn('step_order', 'integer', required)
    .addColumn('goal_id', 'integer', belongsTo('goals'))
    .addPrimaryKeyConstraint('funnel_steps_pk', ['funnel_id', 'step_order'])
    .execute();

  await db.schema
    .createTable('custom_props')
    .addColumn('site_id', 'integer', belongsTo('sites'))
    .addColumn('property', 'text', required)
    .addColumn('created_at', t.bigint, required)
    .addPrimaryKeyConstraint('custom_props_pk', ['site_id', 'property'])
    .execute();

  await ownedTable(db, dialect, 'shared_links', 'site')
    .addColumn('name', 'text', required)
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text')
    .addColumn('created_at', t.bigint, required)
    .addUniqueConstraint('shared_links_name_unique', ['site_id', 'name'])
    .execute();

  // Site guests carry site_id; team memberships leave it null. Only the token's hash is stored.
  await ownedTable(db, dialect, 'invitations', 'team')
    .addColumn('site_id', 'integer', (c) => c.references('sites.id').onDelete('cascade'))
    .addColumn('email', 'text', required)
    .addColumn('email_normalized', 'text', required)
    .addColumn('role', 'text', required)
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by_user_id', 'integer', (c) => c.references('users.id'))
    .$call(offerTimes(dialect))
    .execute();
  await db.schema.createIndex('invitations_team').on('invitations').columns(['team_id', 'email_normalized']).execute();

  // Site guests once accepted (team members live in memberships).
  await grantTable(db, dialect, 'site_guests', 'site').execute();

  await ownedTable(db, dialect, 'ownership_transfers', 'team')
    .addColumn('from_user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('to_email_normalized', 'text', required)
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .$call(offerTimes(dialect))
    .execute();
}
