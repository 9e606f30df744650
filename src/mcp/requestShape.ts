import { ClientRequestSchema, ErrorCode, isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

/** Each method's request schema, from the SDK's own list of what a client may ask. */
const SCHEMAS = new Map<string, (typeof ClientRequestSchema.options)[number]>(ClientRequestSchema.options.map((schema) => [schema.shape.method.value, schema]));

const KINDS: Record<string, string> = {
  record: 'an object',
  object: 'an object',
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  array: 'an array',
};

function sentence(method: string, request: unknown, issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return `The ${method} request does not fit the method.`;
  const where = issue.path.join('.');
  let given: unknown = request;
  for (const key of issue.path) given = typeof given === 'object' && given !== null ? Reflect.get(given, key) : undefined;
  if (given === undefined) return `The ${method} request needs ${where}.`;
  if (issue.code === 'invalid_type') return `The ${method} request's ${where} must be ${KINDS[issue.expected] ?? issue.expected}.`;
  return `The ${method} request's ${where} is wrong: ${issue.message}.`;
}

/**
 * The answer to a request whose params do not fit its method, or null when they fit (or the
 * SDK answers it anyway, as with an unknown method). The SDK checks params only inside its
 * handlers and answers a mismatch as an internal error holding zod's issue list; checked here
 * first, the client reads which param is wrong, as an invalid-params error.
 */
function misshapenRequest(body: unknown): JSONRPCMessage | null {
  if (!isJSONRPCRequest(body)) return null;
  const request = { method: body.method, params: body.params };
  const parsed = SCHEMAS.get(body.method)?.safeParse(request);
  const refuse = (message: string): JSONRPCMessage => ({ jsonrpc: '2.0', id: body.id, error: { code: ErrorCode.InvalidParams, message } });
  if (parsed !== undefined && !parsed.success) return refuse(sentence(body.method, request, parsed.error.issues[0]));
  // The SDK reads a resource's address with new URL() and answers a failure as an internal error.
  const uri = body.method === 'resources/read' ? body.params?.uri : undefined;
  if (typeof uri === 'string' && !URL.canParse(uri)) return refuse(`"${uri.slice(0, 200)}" is not a resource address; sites are read as site://<domain>.`);
  return null;
}

/**
 * A message or a JSON-RPC batch screened: the misshapen requests answered here (`answered`), and
 * what is left for the SDK, in the body's own shape (null when nothing is).
 */
export function screenRequests(body: unknown): { answered: JSONRPCMessage[]; rest: unknown } {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const answered: JSONRPCMessage[] = [];
  const rest: unknown[] = [];
  for (const message of messages) {
    const refusal = misshapenRequest(message);
    if (refusal) answered.push(refusal);
    else rest.push(message);
  }
  return { answered, rest: rest.length === 0 ? null : Array.isArray(body) ? rest : rest[0] };
}
