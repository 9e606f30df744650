import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Scope } from '../accounts/apiKeyTokens.js';
import { scopeRefusal } from '../api/authentication.js';
import { asAppError } from '../api/errorHandling.js';
import type { Clock } from '../clock.js';
import { parsePayload } from '../management/payload.js';
import type { QueryEngineDeps } from '../query/run/engine.js';
import type { ApiCaller } from '../stores/meta/apiKeys.js';
import type { MetaDb } from '../stores/meta/database.js';

/** What the tools call into: the same stores and engine the /api routes use. */
export interface McpDeps {
  db: MetaDb;
  clock: Clock;
  engine: QueryEngineDeps;
  log: FastifyBaseLogger;
  /** Tell cached lookups (ingestion) that a site's goals changed. */
  siteChanged(siteId: number): void;
}

/** One call's context: the dependencies and the authenticated caller (key or web session). */
export interface ToolContext {
  deps: McpDeps;
  caller: ApiCaller;
}

/** read: changes nothing; write: adds or is idempotent; delete: removes something. */
type Effect = 'read' | 'write' | 'delete';

export interface Tool {
  name: string;
  title: string;
  description: string;
  scope: Scope;
  effect: Effect;
  input: z.ZodObject;
  /** What tools/list shows; built once, since a server is built for every request. */
  published: z.ZodObject;
  call(args: Record<string, unknown>, ctx: ToolContext): Promise<unknown>;
}

interface ToolSpec<Args> {
  name: string;
  title: string;
  description: string;
  scope: Scope;
  effect: Effect;
  run(args: Args, ctx: ToolContext): Promise<unknown>;
}

/** A tool whose arguments are parsed against its schema, with the management API's sentences for mistakes. */
export function tool<Shape extends z.ZodRawShape>(spec: ToolSpec<z.infer<z.ZodObject<Shape>>> & { input: z.ZodObject<Shape> }): Tool {
  return { ...spec, published: publishedSchema(spec.input), call: (args, ctx) => spec.run(parsePayload(spec.input, args), ctx) };
}

/**
 * A tool that hands its arguments on unparsed because the code it calls validates them itself
 * (the query engine), so a mistake reads exactly as the API words it.
 */
export function rawTool(spec: ToolSpec<Record<string, unknown>> & { input: z.ZodObject }): Tool {
  return { ...spec, published: publishedSchema(spec.input), call: (args, ctx) => spec.run(args, ctx) };
}

const ANNOTATIONS: Record<Effect, ToolAnnotations> = {
  read: { readOnlyHint: true, openWorldHint: false },
  write: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  delete: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
};

/**
 * The schema a client sees is the tool's own, but the SDK would also validate with it and answer
 * mistakes in zod's words before our code runs. So the published object holds the same JSON
 * Schema as metadata over fields that accept anything, and the tool parses for itself.
 */
function publishedSchema(input: z.ZodObject): z.ZodObject {
  const json = z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' });
  const fields = Object.entries(json.properties ?? {}).map(([key, schema]) => [
    key,
    z
      .unknown()
      .optional()
      .meta(typeof schema === 'object' ? schema : {}),
  ]);
  return z.looseObject(Object.fromEntries(fields)).meta({ required: json.required ?? [], additionalProperties: false });
}

export const toolError = (message: string): CallToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

const asText = (value: unknown): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });

/**
 * Every tool is listed whatever the caller's scopes, so an assistant can tell its user which key
 * it needs; a call outside the scopes is a tool error naming the scope.
 */
export function registerTools(server: McpServer, tools: readonly Tool[], ctx: ToolContext): void {
  for (const t of tools) {
    server.registerTool(
      t.name,
      { title: t.title, description: t.description, inputSchema: t.published, annotations: { title: t.title, ...ANNOTATIONS[t.effect] } },
      async (args: Record<string, unknown>) => {
        const refusal = scopeRefusal(ctx.caller, t.scope, 'tool');
        if (refusal) return toolError(refusal.message);
        try {
          return asText(await t.call(args, ctx));
        } catch (error) {
          // A refusal reads as the sentence the API would answer with (a store's domain refusal too).
          const answer = asAppError(error);
          if (answer) return toolError(answer.message);
          ctx.deps.log.error({ err: error, tool: t.name }, 'assistant tool failed');
          return toolError('Something went wrong on our side; the failure has been logged.');
        }
      },
    );
  }
}
