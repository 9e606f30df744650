import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type App, type AppOptions, createApp } from '../../src/app.js';
import type { Clock } from '../../src/clock.js';
import { loadConfig } from '../../src/config/config.js';
import { registerSite } from '../../src/management/sites.js';
import { createApiKey } from '../../src/stores/meta/apiKeys.js';
import { createUserWithTeam } from '../../src/stores/meta/users.js';

export interface TestApp {
  app: App;
  url: string;
  dataDir: string;
  /** Environment that points a CLI process at this app's data. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * The real service on real stores (embedded chDB, SQLite or the given DATABASE_URL) in a fresh
 * data directory, listening on a free loopback port. One per test file: chDB binds one data
 * directory per process, and vitest gives each file its own process.
 */
export async function startTestApp(
  options: { clock?: Clock; env?: Record<string, string>; beforeListen?: (app: App) => void; ingestion?: AppOptions['ingestion']; dataDir?: string } = {},
): Promise<TestApp> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'svc-test-'));
  const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', CLICKHOUSE_MEMORY_LIMIT_MB: '1024', ...options.env };
  const app = await createApp(loadConfig(env), { clock: options.clock, ingestion: options.ingestion });
  options.beforeListen?.(app);
  const url = await app.listen();
  return {
    app,
    url,
    dataDir,
    env,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Account {
  userId: number;
  teamId: number;
  key: string;
  keyId: number;
  domain: string;
  siteId: number;
}

let counter = 0;

/** A user, their team, a site and an API key, written straight to the metadata store. */
export async function createAccount(app: App, options: { scopes?: string[]; hourlyLimit?: number; domain?: string; timezone?: string } = {}): Promise<Account> {
  counter += 1;
  const tag = `${process.pid}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
  const now = app.clock.now();
  const { userId, teamId } = await createUserWithTeam(app.meta.db, { email: `user-${tag}@example.com`, name: `User ${tag}` }, now);
  const site = await registerSite(app.meta.db, { teamId, domain: options.domain ?? `site-${tag}.example.com`, timezone: options.timezone ?? 'Etc/UTC' }, now);
  const { record, key } = await createApiKey(app.meta.db, { teamId, userId, name: 'test', scopes: options.scopes, hourlyLimit: options.hourlyLimit }, now);
  return { userId, teamId, key, keyId: record.id, domain: site.domain, siteId: site.id };
}

export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}
