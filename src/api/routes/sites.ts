import type { FastifyInstance } from 'fastify';
import { badRequest } from '../../errors.js';
import type { MetaDb } from '../../stores/meta/database.js';
import { listTeamSites } from '../../stores/meta/sites.js';

const MAX_LIMIT = 1000;

function parseLimit(raw: unknown): number {
  if (raw === undefined) return 100;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_LIMIT) {
    throw badRequest('invalid_limit', `limit must be a whole number from 1 to ${MAX_LIMIT}.`);
  }
  return Number(raw);
}

function parseCursor(raw: unknown): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) throw badRequest('invalid_cursor', '"after" must be a cursor returned in meta.after.');
  return Number(raw);
}

/** Sites of the key's team, in Plausible's list shape. */
export function siteRoutes(app: FastifyInstance, deps: { db: MetaDb }): void {
  app.get('/api/v1/sites', { config: { scope: 'sites:read' } }, async (request) => {
    const query = request.query as Record<string, unknown>;
    const limit = parseLimit(query.limit);
    const sites = await listTeamSites(deps.db, request.caller.teamId, { limit: limit + 1, afterId: parseCursor(query.after) });
    const page = sites.slice(0, limit);
    const last = page.at(-1);
    return {
      sites: page.map((site) => ({ domain: site.domain, timezone: site.timezone })),
      meta: { after: sites.length > limit && last ? String(last.id) : null, before: null, limit },
    };
  });
}
