import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { McpDeps } from './registry.js';
import { screenRequests } from './requestShape.js';
import { createMcpServer } from './server.js';

function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return new Request(`http://${request.host}${request.url}`, { method: request.method, headers });
}

const stateless = () =>
  new AppError(
    405,
    'method_not_allowed',
    'This MCP endpoint is stateless: send each JSON-RPC message as its own POST; there is no event stream to open or session to end.',
    { allow: 'POST' },
  );

/**
 * POST /mcp: the assistant-tool server over Streamable HTTP. It sits behind the same key check
 * as /api/v1 (registered in that scope), so every message is one API request: rate-limited,
 * refused for a locked team, and its tools checked against the key's scopes. Stateless, with
 * plain JSON answers: a server and transport live for one request, so nothing is kept between calls.
 */
export function mcpRoutes(app: FastifyInstance, deps: McpDeps): void {
  app.post('/mcp', async (request, reply) => {
    const batch = Array.isArray(request.body);
    const { answered, rest } = screenRequests(request.body);
    if (rest === null) return reply.send(batch ? answered : answered[0]);
    const server = createMcpServer(deps, request.caller);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(webRequest(request), { parsedBody: rest });
      const text = await response.text();
      // A batch whose other messages the SDK answered (or, all notifications, accepted): one array of answers.
      if (answered.length > 0 && (response.status === 200 || response.status === 202)) {
        const theirs: unknown = text === '' ? [] : JSON.parse(text);
        return reply.send([...(Array.isArray(theirs) ? theirs : [theirs]), ...answered]);
      }
      response.headers.forEach((value, name) => {
        reply.header(name, value);
      });
      return reply.code(response.status).send(text);
    } finally {
      await server.close();
    }
  });
  app.get('/mcp', async () => {
    throw stateless();
  });
  app.delete('/mcp', async () => {
    throw stateless();
  });
}
