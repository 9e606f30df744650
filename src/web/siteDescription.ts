import type { SiteDescription } from '../contracts/sites.js';
import { funnelJson } from '../management/funnels.js';
import { goalJson } from '../management/goals.js';
import { rawRetentionJson } from '../management/sites.js';
import { listCustomProps } from '../stores/meta/customProps.js';
import type { MetaDb } from '../stores/meta/database.js';
import { listFunnels } from '../stores/meta/funnels.js';
import { listSiteGoals } from '../stores/meta/goals.js';
import type { Site } from '../stores/meta/sites.js';
import { getTeam } from '../stores/meta/teams.js';

/**
 * What a dashboard needs to know of its site before it asks for numbers: time zone, when it was
 * added (a site added today opens on today, as Plausible's does), the lock, goals, funnels,
 * custom properties and how long raw events are kept. Signed-in dashboards and shared links read
 * the same description.
 */
export async function describeSite(db: MetaDb, site: Site): Promise<SiteDescription> {
  const [team, goals, funnels, props] = await Promise.all([
    getTeam(db, site.teamId),
    listSiteGoals(db, site.id),
    listFunnels(db, site.id),
    listCustomProps(db, site.id),
  ]);
  return {
    domain: site.domain,
    timezone: site.timezone,
    created_at: new Date(site.createdAt).toISOString(),
    locked: team?.lockedAt != null,
    locked_reason: team?.lockedReason ?? null,
    goals: goals.map((goal) => goalJson(goal, site.domain)),
    funnels: funnels.map((funnel) => funnelJson(funnel, goals)),
    custom_properties: props,
    ...rawRetentionJson(site),
  };
}
