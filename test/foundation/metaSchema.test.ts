import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { type MetaStore, openMetaStore } from '../../src/stores/meta/database.js';
import { freshPostgresDatabase } from '../support/postgres.js';

/**
 * Released migrations have run on stored metadata: the schema they build stays as released, on
 * each dialect, whatever helpers they come to be written with. The fixtures hold each dialect's
 * migrated schema: SQLite's CREATE statements, PostgreSQL's columns, constraints and indexes.
 */
async function schema(store: MetaStore): Promise<string> {
  const lines = (rows: Record<string, unknown>[]) => rows.map((row) => Object.values(row).map(String).join(' | '));
  if (store.dialect === 'sqlite') {
    const { rows } = await sql<Record<string, unknown>>`SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name`.execute(store.db);
    return `${lines(rows).join('\n')}\n`;
  }
  const columns = await sql<Record<string, unknown>>`SELECT table_name, ordinal_position, column_name, data_type, column_default, is_nullable
    FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`.execute(store.db);
  const constraints = await sql<Record<string, unknown>>`SELECT conrelid::regclass::text AS table_name, conname, pg_get_constraintdef(oid) AS definition
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2`.execute(store.db);
  const indexes = await sql<Record<string, unknown>>`SELECT tablename, indexname, indexdef
    FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1, 2`.execute(store.db);
  return `${[...lines(columns.rows), ...lines(constraints.rows), ...lines(indexes.rows)].join('\n')}\n`;
}

const postgres = await freshPostgresDatabase();
afterAll(() => postgres?.drop());

describe('metadata migrations', () => {
  it('build the same SQLite schema as when they were released', async () => {
    const store = await openMetaStore({ kind: 'sqlite', path: join(mkdtempSync(join(tmpdir(), 'svc-meta-schema-')), 'meta.sqlite') });
    try {
      expect(await schema(store)).toBe(readFileSync(new URL('./fixtures/metaSchema.sqlite.txt', import.meta.url), 'utf8'));
    } finally {
      await store.close();
    }
  });

  it.skipIf(!postgres)('build the same PostgreSQL schema as when they were released', async () => {
    const store = await openMetaStore({ kind: 'postgres', url: postgres!.url });
    try {
      expect(await schema(store)).toBe(readFileSync(new URL('./fixtures/metaSchema.postgres.txt', import.meta.url), 'utf8'));
    } finally {
      await store.close();
    }
  });
});
