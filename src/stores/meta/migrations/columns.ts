import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';

export type MetaDialect = 'sqlite' | 'postgres';

/**
 * The only differences between the dialects in our migrations: the auto-increment key and the
 * 64-bit integer type (epoch milliseconds). Everything else is written once.
 */
export function columnTypes(dialect: MetaDialect) {
  return {
    id: dialect === 'postgres' ? ('serial' as const) : ('integer' as const),
    bigId: dialect === 'postgres' ? ('bigserial' as const) : ('integer' as const),
    bigint: dialect === 'postgres' ? ('bigint' as const) : ('integer' as const),
  };
}

export function primaryKey(dialect: MetaDialect) {
  return (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
}

/** A column that always holds a value. */
export const required = (c: ColumnDefinitionBuilder) => c.notNull();

/** A reference to the row of `table` this one belongs to, deleted with it. */
export const belongsTo = (table: string) => (c: ColumnDefinitionBuilder) => c.notNull().references(`${table}.id`).onDelete('cascade');

const OWNERS = { site: ['site_id', 'sites'], team: ['team_id', 'teams'] } as const;

/** A table of rows with their own key, each belonging to one site or team and deleted with it. */
export function ownedTable(db: Kysely<unknown>, dialect: MetaDialect, name: string, owner: keyof typeof OWNERS) {
  const [column, table] = OWNERS[owner];
  return db.schema.createTable(name).addColumn('id', columnTypes(dialect).id, primaryKey(dialect)).addColumn(column, 'integer', belongsTo(table));
}

/** Who was granted a role on a site or team, and since when; one row per person and site or team. */
export function grantTable(db: Kysely<unknown>, dialect: MetaDialect, name: string, owner: keyof typeof OWNERS) {
  const [column, table] = OWNERS[owner];
  return db.schema
    .createTable(name)
    .addColumn(column, 'integer', belongsTo(table))
    .addColumn('user_id', 'integer', belongsTo('users'))
    .addColumn('role', 'text', required)
    .addColumn('created_at', columnTypes(dialect).bigint, required)
    .addPrimaryKeyConstraint(`${name}_pk`, [column, 'user_id']);
}

/** When an offer sent by mail (an invitation, an ownership transfer) was made, until when it holds, and how it ended. */
export const offerTimes =
  (dialect: MetaDialect) =>
  <Table extends string, Columns extends string>(table: CreateTableBuilder<Table, Columns>) => {
    const t = columnTypes(dialect);
    return table
      .addColumn('created_at', t.bigint, required)
      .addColumn('expires_at', t.bigint, required)
      .addColumn('accepted_at', t.bigint)
      .addColumn('revoked_at', t.bigint);
  };
