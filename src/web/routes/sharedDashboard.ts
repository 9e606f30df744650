import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { verifyPassword } from '../../accounts/passwords.js';
import { SIGN_IN_LIMIT } from '../../accounts/signInLimiter.js';
import type { Acknowledgement } from '../../contracts/acknowledgements.js';
import { type AnnotationList, annotationDays } from '../../contracts/annotations.js';
import type { FunnelReport } from '../../contracts/funnels.js';
import type { JourneysResponse } from '../../contracts/journeys.js';
import type { QueryResponse } from '../../contracts/query.js';
import type { SiteDescription } from '../../contracts/sites.js';
import { AppError, notFound } from '../../errors.js';
import { annotationJson } from '../../management/annotations.js';
import { parsePayload } from '../../management/payload.js';
import { runJourneys } from '../../query/journeys/runJourneys.js';
import { type QueryEngineDeps, runQuery } from '../../query/run/engine.js';
import { runFunnel } from '../../query/run/funnel.js';
import { listAnnotations } from '../../stores/meta/annotations.js';
import { findSharedLinkBySlug, type SharedLink } from '../../stores/meta/sharedLinks.js';
import { getSite, type Site } from '../../stores/meta/sites.js';
import { sendDashboardZip } from '../dashboardZip.js';
import type { WebDeps } from '../signIn.js';
import { refuseLockedTeam } from '../siteAccess.js';
import { describeSite } from '../siteDescription.js';

const slugParams = z.strictObject({ slug: z.string().min(1).max(100) });
const unlockBody = z.strictObject({ password: z.string().max(1000) });
const engineBody = z.object({}).catchall(z.unknown());

/** An unlocked shared link stays open in that browser for a day. */
const UNLOCK_MS = 24 * 3_600_000;
const cookieName = (link: SharedLink) => `svc_share_${link.id}`;

const linkNotFound = () => notFound('This shared link does not exist (any more): ask its owner for a new one.');

/**
 * Shared-link dashboards (`/share/<domain>?auth=<slug>`): the site's numbers read-only, without
 * sign-in, behind the link's password when it has one. Unlocking sets a cookie for that link
 * only, signed with the server secret and valid a day; password guesses are limited per link
 * and per client.
 */
export function sharedDashboardRoutes(scope: FastifyInstance, deps: WebDeps & { engine: QueryEngineDeps; secret: string }): void {
  const sign = (link: SharedLink, until: number) => createHmac('sha256', deps.secret).update(`share:${link.id}:${link.slug}:${until}`).digest('base64url');

  const unlocked = (request: FastifyRequest, link: SharedLink) => {
    if (link.passwordHash === null) return true;
    const [until, signature] = (request.cookies?.[cookieName(link)] ?? '').split('.');
    if (!until || !signature || Number(until) < deps.clock.now()) return false;
    const expected = Buffer.from(sign(link, Number(until)));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  };

  const open = async (request: FastifyRequest): Promise<{ link: SharedLink; site: Site }> => {
    const { slug } = parsePayload(slugParams, request.params);
    const link = await findSharedLinkBySlug(deps.db, slug);
    const site = link ? await getSite(deps.db, link.siteId) : undefined;
    if (!link || !site || site.deletedAt !== null) throw linkNotFound();
    return { link, site };
  };

  const openUnlocked = async (request: FastifyRequest) => {
    const opened = await open(request);
    if (!unlocked(request, opened.link)) throw new AppError(401, 'password_required', 'This shared dashboard is protected by a password.');
    return opened;
  };

  scope.get('/app/api/share/:slug', async (request): Promise<SiteDescription> => {
    const { site } = await openUnlocked(request);
    // A shared link's visitors are not told why the team is locked, only that it is.
    return { ...(await describeSite(deps.db, site)), locked_reason: null };
  });

  scope.post('/app/api/share/:slug/unlock', async (request, reply): Promise<Acknowledgement<'unlocked'>> => {
    const { link } = await open(request);
    const body = parsePayload(unlockBody, request.body);
    const now = deps.clock.now();
    const keys = [`share:${link.id}`, `share-client:${request.ip}`];
    const wait = await deps.signInLimiter.retryAfter(
      [
        [keys[0] as string, SIGN_IN_LIMIT.perAccount],
        [keys[1] as string, SIGN_IN_LIMIT.perClient],
      ],
      now,
    );
    if (wait > 0)
      throw new AppError(429, 'too_many_attempts', `Too many wrong passwords; try again in ${Math.ceil(wait / 60)} minute(s).`, {
        'retry-after': String(wait),
      });
    if (link.passwordHash !== null && !(await verifyPassword(body.password, link.passwordHash))) {
      await deps.signInLimiter.failed(keys, now);
      throw new AppError(403, 'invalid_credentials', 'That is not the password of this shared dashboard.');
    }
    const until = now + UNLOCK_MS;
    reply.setCookie(cookieName(link), `${until}.${sign(link, until)}`, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: deps.secureCookies,
      maxAge: UNLOCK_MS / 1000,
    });
    return { unlocked: true };
  });

  scope.post('/app/api/share/:slug/query', { bodyLimit: 1024 * 1024 }, async (request): Promise<QueryResponse> => {
    const { site } = await openUnlocked(request);
    await refuseLockedTeam(deps.db, site.teamId);
    return runQuery(deps.engine, site.teamId, { ...parsePayload(engineBody, request.body ?? {}), site_id: site.domain });
  });

  // The graph's notes are part of what the link shows (read-only, like the numbers).
  scope.get('/app/api/share/:slug/annotations', async (request): Promise<AnnotationList> => {
    const { site } = await openUnlocked(request);
    const days = parsePayload(annotationDays, request.query ?? {});
    return { annotations: (await listAnnotations(deps.db, site.id, days)).map(annotationJson) };
  });

  scope.post('/app/api/share/:slug/funnel', { bodyLimit: 64 * 1024 }, async (request): Promise<FunnelReport> => {
    const { site } = await openUnlocked(request);
    await refuseLockedTeam(deps.db, site.teamId);
    return runFunnel(deps.engine, site.teamId, { ...parsePayload(engineBody, request.body ?? {}), site_id: site.domain });
  });

  scope.post('/app/api/share/:slug/journeys', { bodyLimit: 1024 * 1024 }, async (request): Promise<JourneysResponse> => {
    const { site } = await openUnlocked(request);
    await refuseLockedTeam(deps.db, site.teamId);
    return runJourneys(deps.engine, site.teamId, { ...parsePayload(engineBody, request.body ?? {}), site_id: site.domain });
  });

  scope.get('/app/api/share/:slug/dashboard.zip', async (request, reply) => {
    const { site } = await openUnlocked(request);
    await refuseLockedTeam(deps.db, site.teamId);
    return sendDashboardZip(reply, deps, site, request.query);
  });
}
