import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Acknowledgement } from '../../contracts/acknowledgements.js';
import { type Annotation, type AnnotationList, annotationContent, annotationDays } from '../../contracts/annotations.js';
import { domainItemParams, domainParams } from '../../contracts/params.js';
import { roleIn, SITE_EDITORS } from '../../contracts/roles.js';
import { AppError } from '../../errors.js';
import { addAnnotation, annotationJson, changeAnnotation, removeAnnotation } from '../../management/annotations.js';
import { parsePayload } from '../../management/payload.js';
import { listAnnotations } from '../../stores/meta/annotations.js';
import { requireViewer, type WebDeps } from '../signIn.js';
import { requireViewerSite } from '../siteAccess.js';

/**
 * The dashboard's graph notes for a signed-in viewer: everyone who sees the site reads them; its
 * editors (team editors, admins and owners, and guests invited as editors) write them. The same
 * rules as /api/v1/sites/{site_id}/annotations (src/management/annotations.ts).
 */
export function dashboardAnnotationRoutes(scope: FastifyInstance, deps: WebDeps): void {
  const editableSite = async (request: FastifyRequest, domain: string) => {
    const { site, role } = await requireViewerSite(deps.db, requireViewer(request), domain, deps.clock.now());
    if (!roleIn(role, SITE_EDITORS)) throw new AppError(403, 'forbidden_role', `Annotations are added and changed by the site's editors; you are a ${role}.`);
    return site;
  };

  scope.get('/app/api/sites/:domain/annotations', async (request): Promise<AnnotationList> => {
    const { domain } = parsePayload(domainParams, request.params);
    const days = parsePayload(annotationDays, request.query ?? {});
    const { site } = await requireViewerSite(deps.db, requireViewer(request), domain, deps.clock.now());
    return { annotations: (await listAnnotations(deps.db, site.id, days)).map(annotationJson) };
  });

  scope.post('/app/api/sites/:domain/annotations', async (request, reply): Promise<Annotation> => {
    const { domain } = parsePayload(domainParams, request.params);
    const content = parsePayload(annotationContent, request.body);
    const site = await editableSite(request, domain);
    reply.code(201);
    return annotationJson(await addAnnotation(deps.db, site.id, content, deps.clock.now()));
  });

  scope.put('/app/api/sites/:domain/annotations/:id', async (request): Promise<Annotation> => {
    const { domain, id } = parsePayload(domainItemParams, request.params);
    const content = parsePayload(annotationContent, request.body);
    const site = await editableSite(request, domain);
    return annotationJson(await changeAnnotation(deps.db, site.id, id, content, deps.clock.now()));
  });

  scope.delete('/app/api/sites/:domain/annotations/:id', async (request): Promise<Acknowledgement<'deleted'>> => {
    const { domain, id } = parsePayload(domainItemParams, request.params);
    const site = await editableSite(request, domain);
    await removeAnnotation(deps.db, site.id, id);
    return { deleted: true };
  });
}
