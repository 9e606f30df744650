import type { TestApp } from './testApp.js';

export const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
export const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

/** Sends one event as a browser would (text/plain body), from the given client address via the trusted loopback proxy. */
export function collect(t: TestApp, body: unknown, options: { ip?: string; ua?: string; headers?: Record<string, string> } = {}) {
  return fetch(`${t.url}/api/event`, {
    method: 'POST',
    headers: {
      'content-type': 'text/plain',
      'user-agent': options.ua ?? CHROME_MAC,
      ...(options.ip ? { 'x-forwarded-for': options.ip } : {}),
      ...options.headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Flushes the write buffer, then runs a query on the event store. */
export async function stored<T = Record<string, unknown>>(t: TestApp, sql: string, params: Record<string, unknown> = {}): Promise<T[]> {
  await t.app.ingestion.buffer.flush();
  const result = await t.app.events.query.query({ query: sql, query_params: params, format: 'JSONEachRow' });
  return result.json<T>();
}
