import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import * as m0001 from './0001_accounts.js';
import * as m0002 from './0002_ingestion.js';
import * as m0003 from './0003_management.js';
import * as m0004 from './0004_outbox.js';
import * as m0005 from './0005_site_lifecycle.js';
import * as m0006 from './0006_webhooks.js';
import * as m0007 from './0007_web_sessions.js';
import * as m0008 from './0008_imports.js';
import * as m0009 from './0009_event_imports.js';
import * as m0010 from './0010_raw_retention.js';
import * as m0011 from './0011_leases.js';
import * as m0012 from './0012_webhook_subscription_start.js';
import * as m0013 from './0013_segments.js';
import * as m0014 from './0014_annotations.js';
import * as m0015 from './0015_account_security.js';
import * as m0016 from './0016_email_reports.js';
import type { MetaDialect } from './columns.js';

export type { MetaDialect } from './columns.js';

type Up = (db: Kysely<unknown>, dialect: MetaDialect) => Promise<void>;

/** In order; a released migration is never edited, only followed by a new one. */
const MIGRATIONS: Array<[string, Up]> = [
  ['0001_accounts', m0001.up],
  ['0002_ingestion', m0002.up],
  ['0003_management', m0003.up],
  ['0004_outbox', m0004.up],
  ['0005_site_lifecycle', m0005.up],
  ['0006_webhooks', m0006.up],
  ['0007_web_sessions', m0007.up],
  ['0008_imports', m0008.up],
  ['0009_event_imports', m0009.up],
  ['0010_raw_retention', m0010.up],
  ['0011_leases', m0011.up],
  ['0012_webhook_subscription_start', m0012.up],
  ['0013_segments', m0013.up],
  ['0014_annotations', m0014.up],
  ['0015_account_security', m0015.up],
  ['0016_email_reports', m0016.up],
];

export function metaMigrations(dialect: MetaDialect): MigrationProvider {
  const migrations: Record<string, Migration> = {};
  for (const [name, up] of MIGRATIONS) migrations[name] = { up: (db) => up(db, dialect) };
  return { getMigrations: async () => migrations };
}

export async function migrateMeta(db: Kysely<unknown>, dialect: MetaDialect): Promise<string[]> {
  const migrator = new Migrator({ db, provider: metaMigrations(dialect) });
  // Reading what ran takes no lock; migrating takes the write lock, so every CLI command beside a
  // busy server would contend for it even with nothing to do.
  const known = await migrator.getMigrations();
  if (known.every((migration) => migration.executedAt !== undefined)) return [];
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
