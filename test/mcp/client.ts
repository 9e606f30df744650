import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { bearer } from '../support/testApp.js';

/** The SDK's own client on /mcp with a bearer key. */
export async function httpClient(url: string, key: string): Promise<Client> {
  const client = new Client({ name: 'svc-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: bearer(key) } }));
  return client;
}

export type ToolCall = (name: string, args?: Record<string, unknown>) => Promise<CallToolResult>;

export const caller =
  (client: Client): ToolCall =>
  async (name, args = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;

const text = (result: CallToolResult) => {
  const [first] = result.content;
  if (first?.type !== 'text') throw new Error(`expected text content, got ${JSON.stringify(result.content)}`);
  return first.text;
};

/** A successful call's JSON. */
export async function ok(call: ToolCall, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = await call(name, args);
  if (result.isError) throw new Error(`${name} failed: ${text(result)}`);
  return JSON.parse(text(result));
}

/** A failed call's sentence. */
export async function refused(call: ToolCall, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = await call(name, args);
  expect(result.isError, `${name} should fail but answered ${text(result)}`).toBe(true);
  return text(result);
}
