import { freshPostgresDatabase } from '../../support/postgres.js';

export interface IsolatedMetadata {
  /** Environment for startTestApp. */
  env: Record<string, string>;
  /** Drops the database, once the app is closed. */
  dispose(): Promise<void>;
}

/**
 * SQLite by default; with TEST_DATABASE_URL, a fresh PostgreSQL database of this file's own,
 * so no other test file's background webhook worker claims its deliveries.
 */
export async function isolatedMetadata(): Promise<IsolatedMetadata> {
  const database = await freshPostgresDatabase();
  if (!database) return { env: {}, dispose: async () => {} };
  return { env: { DATABASE_URL: database.url }, dispose: database.drop };
}
