import { AppError, notFound } from '../../errors.js';
import type { MetaDb } from '../../stores/meta/database.js';
import { findTeamSite } from '../../stores/meta/sites.js';
import type { SiteContext } from '../model.js';

/**
 * How the statistics routes refuse a site the key cannot read: as the reference's Stats API does,
 * 401 with the key and the site judged together, so its clients treat it as the access failure it is.
 */
export const statsSiteRefused = () =>
  new AppError(401, 'unauthorized', "Invalid API key or site ID. Please make sure you're using a valid API key with access to the site you've requested.");

/**
 * The caller's site with its goals; a site of another team is answered exactly like a missing one
 * (404 unless the route asks for another refusal).
 */
export async function loadSiteContext(
  db: MetaDb,
  teamId: number,
  domain: string,
  refuse: () => AppError = () => notFound(`There is no site "${domain}" that this API key can read.`),
): Promise<SiteContext> {
  const site = await findTeamSite(db, teamId, domain);
  if (!site) throw refuse();
  const [row, goals] = await Promise.all([
    db.selectFrom('sites').select('included_classifications').where('id', '=', site.id).executeTakeFirstOrThrow(),
    db
      .selectFrom('goals')
      .select(['display_name', 'event_name', 'page_path', 'scroll_threshold', 'currency'])
      .where('site_id', '=', site.id)
      .orderBy('id')
      .execute(),
  ]);
  return {
    id: site.id,
    domain: site.domain,
    timezone: site.timezone,
    includedClassifications: row.included_classifications.split(/\s+/).filter(Boolean),
    goals: goals.map((goal) => ({
      displayName: goal.display_name,
      eventName: goal.event_name,
      pagePath: goal.page_path,
      scrollThreshold: goal.scroll_threshold,
      currency: goal.currency,
    })),
    rawEventsFrom: site.rawEventsFrom,
  };
}
