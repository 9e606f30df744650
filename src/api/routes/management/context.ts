import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../../clock.js';
import type { Mailer } from '../../../mail/mailer.js';
import type { QueryEngineDeps } from '../../../query/run/engine.js';
import type { MetaDb } from '../../../stores/meta/database.js';
import { bodyFields, singleValued } from '../../requestParts.js';

/** What every management route needs. */
export interface ManagementDeps {
  db: MetaDb;
  clock: Clock;
  /** The query engine, which answers the funnel report. */
  engine: QueryEngineDeps;
  /** Public address of the service: snippet, shared-link and invitation URLs are built on it. */
  baseUrl: string;
  /** Sends invitation emails; null without SMTP_URL (the answer's link is then the only way). */
  mailer: Mailer | null;
  /** Tell cached lookups (ingestion) that a site, its shields or its settings changed. */
  siteChanged(siteId: number): void;
}

/**
 * `site_id` (the domain) where Plausible takes it on reads and deletes: in the query string, or in
 * a JSON body.
 */
export function siteIdParameter(request: FastifyRequest): unknown {
  return singleValued(request.query).site_id ?? bodyFields(request.body)?.site_id;
}

/**
 * A write's JSON body, with `site_id` taken from the query string when the body lacks it:
 * Plausible merges query and body parameters, and its clients put `site_id` in either
 * (its own tests send `PUT /api/v1/sites/guests?site_id=…` with `{email, role}`).
 */
export function bodyWithSiteId(request: FastifyRequest): unknown {
  const siteId = singleValued(request.query).site_id;
  const body = bodyFields(request.body ?? {});
  if (siteId === undefined || body === undefined || 'site_id' in body) return request.body;
  return { ...body, site_id: siteId };
}

export const READ = { config: { scope: 'sites:read' as const } };
export const PROVISION = { config: { scope: 'sites:provision' as const } };

export const isoTime = (epochMs: number) => new Date(epochMs).toISOString();
