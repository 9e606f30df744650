import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';

export type MetaDialect = 'sqlite' | 'postgres';

/**
 * One migration set for both dialects. Only the auto-increment primary key and the 64-bit
 * integer type differ, so each migration receives the dialect and asks these helpers.
 */
function types(dialect: MetaDialect) {
  return {
    id: dialect === 'postgres' ? ('serial' as const) : ('integer' as const),
    bigint: dialect === 'postgres' ? ('bigint' as const) : ('integer' as const),
  };
}

type Step = (db: Kysely<unknown>, dialect: MetaDialect) => Promise<void>;

const steps: Array<[string, Step]> = [
  [
    '0001_accounts',
    async (db, dialect) => {
      const t = types(dialect);
      await db.schema
        .createTable('users')
        .addColumn('id', t.id, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('email_normalized', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text')
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('teams')
        .addColumn('id', t.id, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
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
        .addColumn('id', t.id, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id'))
        .addColumn('domain', 'text', (c) => c.notNull())
        .addColumn('timezone', 'text', (c) => c.notNull())
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .addColumn('updated_at', t.bigint, (c) => c.notNull())
        .addColumn('deleted_at', t.bigint)
        .execute();
      // A deleted site frees its domain, so uniqueness holds among live sites only.
      await db.schema
        .createIndex('sites_live_domain')
        .on('sites')
        .column('domain')
        .unique()
        .where(sql.ref('deleted_at'), 'is', null)
        .execute();
      await db.schema.createIndex('sites_team').on('sites').column('team_id').execute();
      await db.schema
        .createTable('api_keys')
        .addColumn('id', t.id, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
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
    },
  ],
];

/** Migrations in order; later steps append, never edit. */
export function metaMigrations(dialect: MetaDialect): MigrationProvider {
  const migrations: Record<string, Migration> = {};
  for (const [name, up] of steps) migrations[name] = { up: (db) => up(db, dialect) };
  return { getMigrations: async () => migrations };
}

export async function migrateMeta(db: Kysely<unknown>, dialect: MetaDialect): Promise<string[]> {
  const migrator = new Migrator({ db, provider: metaMigrations(dialect) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
