import pg from 'pg';

export interface IsolatedMetadata {
  /** Environment for startTestApp. */
  env: Record<string, string>;
  /** Drops the database, once the app is closed. */
  dispose(): Promise<void>;
}

async function admin(base: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * SQLite by default; with TEST_DATABASE_URL, a fresh PostgreSQL database of this file's own,
 * so no other test file's background webhook worker claims its deliveries.
 */
export async function isolatedMetadata(name: string): Promise<IsolatedMetadata> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return { env: {}, dispose: async () => {} };
  const database = `svc_test_${name}_${process.pid}`;
  await admin(base, `drop database if exists ${database}`);
  await admin(base, `create database ${database}`);
  const url = new URL(base);
  url.pathname = `/${database}`;
  return { env: { DATABASE_URL: url.href }, dispose: () => admin(base, `drop database if exists ${database}`) };
}
