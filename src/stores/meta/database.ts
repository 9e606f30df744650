import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import {
  CamelCasePlugin,
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresDialect,
  type Selectable,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  sql,
} from 'kysely';
import pg from 'pg';
import type { Config } from '../../config/config.js';
import { type MetaDialect, migrateMeta } from './migrations/index.js';
import type { MetaSchema } from './schema.js';

// int8 (counts, epoch milliseconds) arrives as a string by default; every value we keep fits a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type MetaDb = Kysely<MetaSchema>;

type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** The metadata tables with camelCase column names, as the stores' records name them. */
export type MetaRecords = { [Table in keyof MetaSchema]: { [Column in keyof MetaSchema[Table] & string as CamelCase<Column>]: MetaSchema[Table][Column] } };
export type RecordDb = Kysely<MetaRecords>;
/** A row of a table as the stores read it. */
export type MetaRecord<Table extends keyof MetaRecords> = Selectable<MetaRecords[Table]>;

// JSON values keep their own keys: only column names are renamed.
const camelCase = new CamelCasePlugin({ maintainNestedObjectKeys: true });

/**
 * The same database (or transaction) with Kysely's CamelCasePlugin: queries name columns in
 * camelCase and rows come back so, which the tables keep in snake_case. Stores read and write their
 * records through it instead of mapping each row by hand; migrations and other modules keep the
 * plain instance, so the tables themselves are unchanged.
 */
export const records = (db: MetaDb): RecordDb => db.withPlugin(camelCase) as unknown as RecordDb;

/**
 * SQLite transactions that begin as writes. A deferred transaction (SQLite's default) that reads
 * and then writes must upgrade its lock, and when another process (the CLI beside the server) has
 * written meanwhile SQLite answers SQLITE_BUSY at once instead of waiting: "database is locked".
 * `BEGIN IMMEDIATE` takes the write lock first, waiting up to busy_timeout for it.
 */
class WriteFirstSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class WriteFirstSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new WriteFirstSqliteDriver(this.settings);
  }
}

export interface MetaStore {
  db: MetaDb;
  dialect: MetaDialect;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Open the metadata store named by the config and bring its schema up to date. */
export async function openMetaStore(metadata: Config['metadata']): Promise<MetaStore> {
  let db: MetaDb;
  if (metadata.kind === 'sqlite') {
    mkdirSync(dirname(metadata.path), { recursive: true });
    const sqlite = new Database(metadata.path);
    sqlite.pragma('journal_mode = WAL');
    // The CLI writes while the server runs; wait for the other writer instead of failing.
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('synchronous = NORMAL');
    db = new Kysely<MetaSchema>({ dialect: new WriteFirstSqliteDialect({ database: sqlite }) });
  } else {
    const pool = new pg.Pool({ connectionString: metadata.url, max: 10 });
    // An idle client that loses its server must not take the process down with it.
    pool.on('error', () => {});
    db = new Kysely<MetaSchema>({ dialect: new PostgresDialect({ pool }) });
  }
  const dialect: MetaDialect = metadata.kind === 'sqlite' ? 'sqlite' : 'postgres';
  try {
    await migrateMeta(db as Kysely<unknown>, dialect);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return {
    db,
    dialect,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
