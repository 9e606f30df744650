import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  ErrorCode,
  isJSONRPCRequest,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type JSONRPCRequest,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { INSTRUCTIONS, SERVER_CAPABILITIES, SERVER_INFO } from './identity.js';

export interface BridgeOptions {
  /** The running server's base address, e.g. http://127.0.0.1:8000. */
  baseUrl: string;
  key: string;
  stdin?: Readable;
  stdout?: Writable;
}

// What the server answers besides JSON-RPC: the API's `{error, code}` or a transport's JSON-RPC error.
const failureSchema = z.union([z.object({ error: z.string() }), z.object({ error: z.object({ message: z.string() }) })]);

function sentenceOf(body: unknown): string | undefined {
  const parsed = failureSchema.safeParse(body);
  if (!parsed.success) return undefined;
  return typeof parsed.data.error === 'string' ? parsed.data.error : parsed.data.error.message;
}

/**
 * A refused call as the client should see it: a tool error for tools/call (so the assistant reads
 * the sentence, e.g. the locked team's, and can tell its user), a JSON-RPC error otherwise.
 */
function failure(request: JSONRPCRequest, sentence: string): JSONRPCMessage {
  if (request.method === 'tools/call') {
    return { jsonrpc: '2.0', id: request.id, result: { content: [{ type: 'text', text: sentence }], isError: true } };
  }
  return { jsonrpc: '2.0', id: request.id, error: { code: ErrorCode.InternalError, message: sentence } };
}

/**
 * `svc mcp`: the assistant-tool server over stdio. Only the server process opens the event store,
 * so this forwards each request to its /mcp endpoint with the key, one POST per message (the
 * endpoint is stateless); `initialize` and `ping` are answered here, notifications dropped, since
 * the stateless endpoint keeps nothing they could change.
 */
export async function runStdioBridge(options: BridgeOptions): Promise<void> {
  const base = options.baseUrl.replace(/\/+$/, '');
  const stdin = options.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin, options.stdout ?? process.stdout);
  let protocolVersion = LATEST_PROTOCOL_VERSION;

  const forward = async (request: JSONRPCRequest): Promise<JSONRPCMessage> => {
    let response: Response;
    try {
      response = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${options.key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': protocolVersion,
        },
        body: JSON.stringify(request),
      });
    } catch {
      return failure(request, `No server answers at ${base}; start it with npm start or pass --url.`);
    }
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) return failure(request, sentenceOf(body) ?? `The server answered ${response.status}.`);
    const message = JSONRPCMessageSchema.safeParse(body);
    return message.success ? message.data : failure(request, `The server at ${base} answered something other than a JSON-RPC message.`);
  };

  const answer = async (request: JSONRPCRequest): Promise<JSONRPCMessage> => {
    if (request.method === 'initialize') {
      const asked = request.params?.protocolVersion;
      protocolVersion = typeof asked === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : LATEST_PROTOCOL_VERSION;
      return {
        jsonrpc: '2.0',
        id: request.id,
        result: { protocolVersion, capabilities: SERVER_CAPABILITIES, serverInfo: SERVER_INFO, instructions: INSTRUCTIONS },
      };
    }
    if (request.method === 'ping') return { jsonrpc: '2.0', id: request.id, result: {} };
    return forward(request);
  };

  const pending = new Set<Promise<void>>();
  // A line the transport cannot read is answered as JSON-RPC says (no id: none could be read),
  // not dropped, so a client sees what it sent wrong.
  transport.onerror = (error) => {
    const unreadable = error instanceof SyntaxError;
    if (!unreadable && error.name !== 'ZodError') return;
    const message = unreadable ? 'A line on stdin is not JSON.' : 'A line on stdin is JSON but not a JSON-RPC 2.0 message.';
    void transport.send({ jsonrpc: '2.0', error: { code: unreadable ? ErrorCode.ParseError : ErrorCode.InvalidRequest, message } });
  };
  transport.onmessage = (message) => {
    if (!isJSONRPCRequest(message)) return;
    const task = answer(message).then((reply) => transport.send(reply));
    pending.add(task);
    void task.finally(() => pending.delete(task));
  };
  await transport.start();
  await new Promise<void>((resolve) => {
    stdin.once('end', resolve);
    stdin.once('close', resolve);
  });
  await Promise.allSettled([...pending]);
  await transport.close();
}
