import type { Clock } from '../clock.js';
import type { MetaDb } from '../stores/meta/database.js';
import { loadSiteShields } from '../stores/meta/shields.js';
import { DOMAIN_TRANSITION_MS } from '../stores/meta/sites.js';
import { type CompiledShields, compileShields } from './shields.js';

/** How long a lookup is kept: the backstop for a change whose invalidation never arrived. */
export const SITE_CACHE_TTL_MS = 30_000;

export interface IngestSite {
  id: number;
  domain: string;
  teamId: number;
  includedClassifications: Set<string>;
  shields: CompiledShields;
}

export type SiteLookup = { kind: 'live'; site: IngestSite } | { kind: 'dormant'; siteId: number } | { kind: 'deleted'; siteId: number } | { kind: 'unknown' };

/**
 * Domain → site, with what ingestion needs of it, cached because every event asks. Changes made
 * in this process invalidate at once (siteChanged); with STATE_URL, changes made through another
 * node arrive as a message that invalidates here too (src/state/invalidation.ts); changes from
 * elsewhere (the CLI, a missed message) are seen within the TTL.
 */
export class SiteDirectory {
  private cache = new Map<string, { lookup: SiteLookup; expires: number }>();
  /**
   * Moves on every invalidation. A lookup read before an invalidation is not cached after it: it
   * may have read the site before the change was committed, and would hold the old answer (a
   * deleted site accepted) for a whole TTL.
   */
  private generation = 0;

  constructor(
    private readonly db: MetaDb,
    private readonly clock: Clock,
  ) {}

  async lookup(domain: string): Promise<SiteLookup> {
    const now = this.clock.now();
    const hit = this.cache.get(domain);
    if (hit && hit.expires > now) return hit.lookup;
    const generation = this.generation;
    const lookup = await this.load(domain, now);
    if (generation !== this.generation) return lookup;
    if (this.cache.size > 100_000) this.cache.clear();
    this.cache.set(domain, { lookup, expires: now + SITE_CACHE_TTL_MS });
    return lookup;
  }

  invalidate(siteId?: number): void {
    this.generation += 1;
    if (siteId === undefined) {
      this.cache.clear();
      return;
    }
    for (const [domain, entry] of this.cache) {
      const lookup = entry.lookup;
      if (lookup.kind === 'unknown' || (lookup.kind === 'live' ? lookup.site.id : lookup.siteId) === siteId) this.cache.delete(domain);
    }
  }

  private async load(domain: string, now: number): Promise<SiteLookup> {
    const rows = await this.db
      .selectFrom('sites')
      .innerJoin('teams', 'teams.id', 'sites.team_id')
      .select(['sites.id', 'sites.domain', 'sites.team_id', 'sites.deleted_at', 'sites.included_classifications', 'teams.collection_stopped_at'])
      .where((eb) =>
        eb.or([
          eb('sites.domain', '=', domain),
          eb.and([eb('sites.previous_domain', '=', domain), eb('sites.domain_changed_at', '>', now - DOMAIN_TRANSITION_MS)]),
        ]),
      )
      .orderBy('sites.id', 'desc')
      .execute();
    const live = rows.find((row) => row.deleted_at === null && row.domain === domain) ?? rows.find((row) => row.deleted_at === null);
    if (!live) {
      const deleted = rows[0];
      return deleted ? { kind: 'deleted', siteId: deleted.id } : { kind: 'unknown' };
    }
    if (live.collection_stopped_at !== null) return { kind: 'dormant', siteId: live.id };
    return {
      kind: 'live',
      site: {
        id: live.id,
        domain: live.domain,
        teamId: live.team_id,
        includedClassifications: new Set(live.included_classifications.split(' ').filter(Boolean)),
        shields: compileShields(await loadSiteShields(this.db, live.id)),
      },
    };
  }
}
