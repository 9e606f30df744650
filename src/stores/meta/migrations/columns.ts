import type { ColumnDefinitionBuilder } from 'kysely';

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
