import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MetaDialect, metaMigrations, migrateMeta } from '../../src/stores/meta/migrations/index.js';
import { freshPostgresDatabase } from '../support/postgres.js';

/**
 * Upgrading to outbox-ordered subscriptions (migration 0012): a webhook registered before the
 * upgrade keeps hearing what comparing times gave it, the events written at or after its
 * registration time, on SQLite and (with TEST_DATABASE_URL) PostgreSQL.
 */
let db: Kysely<any>;
let dialect: MetaDialect;
let dispose: () => Promise<void>;

beforeAll(async () => {
  const postgres = await freshPostgresDatabase();
  if (postgres) {
    dialect = 'postgres';
    db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: postgres.url, max: 1 }) }) });
    dispose = async () => {
      await db.destroy();
      await postgres.drop();
    };
  } else {
    dialect = 'sqlite';
    const dir = mkdtempSync(join(tmpdir(), 'svc-subscription-'));
    db = new Kysely({ dialect: new SqliteDialect({ database: new Database(join(dir, 'meta.db')) }) });
    dispose = async () => {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    };
  }
});
afterAll(async () => {
  await dispose?.();
});

describe('migration 0012', () => {
  it('starts existing webhooks after the events older than their registration', async () => {
    const migrated = await new Migrator({ db, provider: metaMigrations(dialect) }).migrateTo('0011_leases');
    expect(migrated.error).toBeUndefined();
    const team = await db.insertInto('teams').values({ name: 'T', created_at: 0 }).returning('id').executeTakeFirstOrThrow();
    const event = (at: number, n: number) => ({ event_id: `evt_${n}`, type: 'site.created', team_id: team.id, payload: '{}', created_at: at });
    const events = await db
      .insertInto('webhook_events')
      .values([event(1000, 1), event(2000, 2), event(2000, 3), event(3000, 4)])
      .returning('id')
      .execute();
    const hook = (at: number) => ({ team_id: team.id, url: 'https://hooks.example.com', event_types: '', secret: 's', created_at: at, updated_at: at });
    await db
      .insertInto('webhooks')
      .values([hook(500), hook(2000), hook(9000)])
      .execute();

    expect((await migrateMeta(db, dialect))[0]).toBe('0012_webhook_subscription_start');
    const starts = await db.selectFrom('webhooks').select('subscribed_after_event_row_id').orderBy('id').execute();
    expect(starts.map((row) => Number(row.subscribed_after_event_row_id))).toEqual([0, Number(events[0]!.id), Number(events[3]!.id)]);
  });
});
