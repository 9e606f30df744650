import type { ClickHouseClient } from '@clickhouse/client';

/** The rows of a parameterised statement, each as one JSON object. */
export async function select<T>(client: ClickHouseClient, query: string, params: Record<string, unknown> = {}): Promise<T[]> {
  const result = await client.query({ query, query_params: params, format: 'JSONEachRow' });
  return result.json<T>();
}
