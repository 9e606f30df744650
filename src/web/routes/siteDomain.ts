import type { FastifyInstance, FastifyRequest } from 'fastify';
import { domainParams } from '../../contracts/params.js';
import { roleIn, SITE_EDITORS } from '../../contracts/roles.js';
import type { PreviousDomain, ReceivedNames } from '../../contracts/sites.js';
import { AppError } from '../../errors.js';
import { parsePayload } from '../../management/payload.js';
import type { EventStore } from '../../stores/clickhouse/eventStore.js';
import { receivedNames } from '../../stores/clickhouse/receivedNames.js';
import { DOMAIN_TRANSITION_MS } from '../../stores/meta/sites.js';
import { requireViewer, type WebDeps } from '../signIn.js';
import { requireViewerSite } from '../siteAccess.js';

/**
 * What site settings read besides the API: General's former domain and until when it still
 * receives events and answers (src/stores/meta/sites.ts keeps it for DOMAIN_TRANSITION_MS after a
 * change), so the screen can name the day rather than repeat "30 days"; and the names the site
 * received, which the goal and property forms suggest.
 */
export function siteDomainRoutes(scope: FastifyInstance, deps: WebDeps & { events: EventStore }): void {
  /** The path's site, for one of its editors: settings are theirs. */
  const editedSite = async (request: FastifyRequest, now: number) => {
    const { domain } = parsePayload(domainParams, request.params);
    const { site, role, guest } = await requireViewerSite(deps.db, requireViewer(request), domain, now);
    if (guest || !roleIn(role, SITE_EDITORS))
      throw new AppError(403, 'forbidden_role', `Site settings are for the site's editors, admins and owner; you are a ${role}.`);
    return site;
  };

  scope.get('/app/api/sites/:domain/previous-domain', async (request): Promise<PreviousDomain> => {
    const now = deps.clock.now();
    const site = await editedSite(request, now);
    const until = site.domainChangedAt === null ? null : site.domainChangedAt + DOMAIN_TRANSITION_MS;
    const current = site.previousDomain !== null && until !== null && until > now;
    return { previous_domain: current ? site.previousDomain : null, valid_until: current ? new Date(until).toISOString() : null };
  });

  // Site settings › Goals and Custom properties suggest what the site has been sent.
  scope.get('/app/api/sites/:domain/received-names', async (request): Promise<ReceivedNames> => {
    const now = deps.clock.now();
    const site = await editedSite(request, now);
    const { eventNames, propertyKeys } = await receivedNames(deps.events, site.id, now);
    return { event_names: eventNames, property_keys: propertyKeys };
  });
}
