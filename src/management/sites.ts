import type { MetaDb } from '../stores/meta/database.js';
import { createSite, type Site } from '../stores/meta/sites.js';
import { publishEvent } from '../webhooks/outbox.js';

/** Registers a site and announces it to the team's webhooks (`site.created`) in one transaction. */
export function registerSite(db: MetaDb, input: { teamId: number; domain: string; timezone: string }, now: number): Promise<Site> {
  return createSite(db, input, now, async (trx, site) => {
    await publishEvent(trx, { type: 'site.created', teamId: site.teamId, siteId: site.id, data: { domain: site.domain, timezone: site.timezone } }, now);
  });
}
