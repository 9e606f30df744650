import { afterAll } from 'vitest';
import { freshPostgresDatabase } from '../support/postgres.js';
import { bearer } from '../support/testApp.js';

export interface Answer {
  status: number;
  body: any;
}

/** A tiny JSON client for one API key, so tests read as requests and answers. */
export function apiClient(baseUrl: string, key: string | undefined) {
  async function call(method: string, path: string, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = key ? bearer(key) : {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body?: unknown) => call('POST', path, body ?? {}),
    put: (path: string, body?: unknown) => call('PUT', path, body ?? {}),
    patch: (path: string, body?: unknown) => call('PATCH', path, body ?? {}),
    delete: (path: string, body?: unknown) => call('DELETE', path, body),
  };
}

export const q = (params: Record<string, string | number>) => `?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString()}`;

// Each test file runs in its own process and gets its own database, so files never share rows.
const postgres = await freshPostgresDatabase();
afterAll(() => postgres?.drop());

/** The app's environment for these tests; TEST_DATABASE_URL puts the metadata on PostgreSQL. */
export function testEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { ...(postgres ? { DATABASE_URL: postgres.url } : {}), ...extra };
}
