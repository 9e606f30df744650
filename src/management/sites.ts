import type { RawRetention } from '../contracts/sites.js';
import type { MetaDb } from '../stores/meta/database.js';
import { createSite, type Site } from '../stores/meta/sites.js';
import { formatDate, toLocal } from '../time/localTime.js';
import { publishEvent } from '../webhooks/outbox.js';

/** Registers a site and announces it to the team's webhooks (`site.created`) in one transaction. */
export function registerSite(db: MetaDb, input: Parameters<typeof createSite>[1], now: number): Promise<Site> {
  return createSite(db, input, now, async (trx, site) => {
    await publishEvent(trx, { type: 'site.created', teamId: site.teamId, siteId: site.id, data: { domain: site.domain, timezone: site.timezone } }, now);
  });
}

/** The first local day whose raw events are all kept; null while none was deleted (docs/rollups.md, Retention). */
export const rawEventsFromDay = (site: Site): string | null => (site.rawEventsFrom === null ? null : formatDate(toLocal(site.rawEventsFrom, site.timezone)));

/** A site's raw-event retention as the site JSON shows it: the setting, and where kept raw events begin. */
export function rawRetentionJson(site: Site): RawRetention {
  return { raw_retention_days: site.rawRetentionDays, raw_events_from: rawEventsFromDay(site) };
}
