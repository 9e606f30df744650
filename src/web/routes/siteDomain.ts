import type { FastifyInstance } from 'fastify';
import { roleIn, SITE_EDITORS } from '../../accounts/roles.js';
import { domainParams } from '../../contracts/params.js';
import type { PreviousDomain } from '../../contracts/sites.js';
import { AppError } from '../../errors.js';
import { parsePayload } from '../../management/payload.js';
import { DOMAIN_TRANSITION_MS } from '../../stores/meta/sites.js';
import { requireViewer, type WebDeps } from '../signIn.js';
import { requireViewerSite } from '../siteAccess.js';

/**
 * Site settings › General: the site's former domain and until when it still receives events and
 * answers (src/stores/meta/sites.ts keeps it for DOMAIN_TRANSITION_MS after a change), so the
 * screen can name the day rather than repeat "30 days".
 */
export function siteDomainRoutes(scope: FastifyInstance, deps: WebDeps): void {
  scope.get('/app/api/sites/:domain/previous-domain', async (request): Promise<PreviousDomain> => {
    const { domain } = parsePayload(domainParams, request.params);
    const now = deps.clock.now();
    const { site, role, guest } = await requireViewerSite(deps.db, requireViewer(request), domain, now);
    if (guest || !roleIn(role, SITE_EDITORS))
      throw new AppError(403, 'forbidden_role', `Site settings are for the site's editors, admins and owner; you are a ${role}.`);
    const until = site.domainChangedAt === null ? null : site.domainChangedAt + DOMAIN_TRANSITION_MS;
    const current = site.previousDomain !== null && until !== null && until > now;
    return { previous_domain: current ? site.previousDomain : null, valid_until: current ? new Date(until).toISOString() : null };
  });
}
