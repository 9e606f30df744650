import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../../clock.js';
import type { QueryEngineDeps } from '../../../query/engine.js';
import type { MetaDb } from '../../../stores/meta/database.js';

/** What every management route needs. */
export interface ManagementDeps {
  db: MetaDb;
  clock: Clock;
  /** The query engine, which answers the funnel report. */
  engine: QueryEngineDeps;
  /** Public address of the service: snippet, shared-link and invitation URLs are built on it. */
  baseUrl: string;
  /** Tell cached lookups (ingestion) that a site, its shields or its settings changed. */
  siteChanged(siteId: number): void;
}

/**
 * `site_id` (the domain) as Plausible takes it on reads and deletes: in the query string, or in
 * a JSON body.
 */
export function siteIdParameter(request: FastifyRequest): unknown {
  const query = request.query as Record<string, unknown> | undefined;
  const body = request.body as Record<string, unknown> | undefined | null;
  return query?.site_id ?? (body && typeof body === 'object' ? body.site_id : undefined);
}

/**
 * A write's JSON body, with `site_id` taken from the query string when the body lacks it:
 * Plausible merges query and body parameters, and its clients put `site_id` in either
 * (its own tests send `PUT /api/v1/sites/guests?site_id=…` with `{email, role}`).
 */
export function bodyWithSiteId(request: FastifyRequest): unknown {
  const siteId = (request.query as Record<string, unknown> | undefined)?.site_id;
  const body = request.body ?? {};
  if (siteId === undefined || typeof body !== 'object' || body === null || Array.isArray(body) || 'site_id' in body) return request.body;
  return { ...body, site_id: siteId };
}

export const READ = { config: { scope: 'sites:read' as const } };
export const PROVISION = { config: { scope: 'sites:provision' as const } };

export const isoTime = (epochMs: number) => new Date(epochMs).toISOString();
