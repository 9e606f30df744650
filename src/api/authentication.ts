import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashApiKey, type Scope } from '../accounts/apiKeyTokens.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import { type ApiCaller, countApiRequest, findCallerByHash, markApiKeyUsed } from '../stores/meta/apiKeys.js';
import type { MetaDb } from '../stores/meta/database.js';
import { sessionCaller } from '../web/apiSession.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: ApiCaller;
  }
  interface FastifyContextConfig {
    /** The scope a bearer key needs for this route. */
    scope?: Scope;
  }
}

const HOUR = 3_600_000;

// Missing, malformed, unknown and revoked keys are one failure: nothing tells them apart.
const unauthorized = () =>
  new AppError(401, 'unauthorized', 'A valid API key is required in the header "Authorization: Bearer <key>".', {
    'www-authenticate': 'Bearer',
  });

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * The layer in front of every /api/v1 and /api/v2 route, in this order: who is calling (401; the
 * web app's session stands in for a key, src/web/apiSession.ts),
 * how much they have called this hour (rate headers, 429), whether their team is locked (402),
 * whether the key may use this route (403).
 */
export function requireApiKey(app: FastifyInstance, deps: { db: MetaDb; clock: Clock }): void {
  app.decorateRequest('caller', null as unknown as ApiCaller);
  app.addHook('onRequest', async (request, reply) => {
    const token = bearerToken(request);
    const viaSession = token === undefined ? await sessionCaller(deps, request) : undefined;
    if (viaSession) {
      request.caller = viaSession;
      requireScope(request, viaSession);
      return;
    }
    // Every token is hashed before the lookup, so the time taken never depends on key content.
    const caller = await findCallerByHash(deps.db, hashApiKey(token ?? ''));
    if (!caller || token === undefined) throw unauthorized();
    request.caller = caller;

    const now = deps.clock.now();
    const windowStart = Math.floor(now / HOUR) * HOUR;
    const used = await countApiRequest(deps.db, caller.id, windowStart);
    // Shown on Team settings › API keys and by `svc api-key list`.
    await markApiKeyUsed(deps.db, caller, now);
    const resetSeconds = Math.ceil((windowStart + HOUR) / 1000);
    reply.headers({
      'x-ratelimit-limit': String(caller.hourlyLimit),
      'x-ratelimit-remaining': String(Math.max(0, caller.hourlyLimit - used)),
      'x-ratelimit-reset': String(resetSeconds),
    });
    if (used > caller.hourlyLimit) {
      const retryAfter = Math.max(1, resetSeconds - Math.floor(now / 1000));
      throw new AppError(429, 'rate_limited', `This API key has used its ${caller.hourlyLimit} requests for this hour; try again in ${retryAfter} seconds.`, {
        'retry-after': String(retryAfter),
      });
    }

    if (caller.teamLockedAt !== null) {
      throw new AppError(
        402,
        'account_locked',
        `This team's account is locked (${caller.teamLockedReason ?? 'no reason given'}); the API stays closed until a team owner settles it in the billing settings. Event collection continues meanwhile.`,
      );
    }

    requireScope(request, caller);
  });
}

function requireScope(request: FastifyRequest, caller: ApiCaller): void {
  const scope = request.routeOptions.config.scope;
  const refusal = scope && scopeRefusal(caller, scope, 'route');
  if (refusal) throw refusal;
}

/**
 * The 403 for a caller without a scope, or undefined when the scope is granted. The assistant-tool
 * server (src/mcp) checks each tool with it, since one /mcp endpoint carries tools of every scope.
 */
export function scopeRefusal(caller: ApiCaller, scope: Scope, what: 'route' | 'tool' | 'resource'): AppError | undefined {
  if (caller.scopes.includes(scope)) return undefined;
  const who = caller.id === 0 ? 'Your role in this team does not grant' : 'This API key lacks';
  return new AppError(403, 'insufficient_scope', `${who} the "${scope}" scope that this ${what} requires.`);
}
