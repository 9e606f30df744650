import type { FastifyInstance } from 'fastify';
import type { Acknowledgement } from '../../../contracts/acknowledgements.js';
import { type Annotation, type AnnotationList, annotationContent, annotationDays } from '../../../contracts/annotations.js';
import { annotationParams, siteIdParams } from '../../../contracts/params.js';
import { addAnnotation, annotationJson, changeAnnotation, removeAnnotation } from '../../../management/annotations.js';
import { parsePayload } from '../../../management/payload.js';
import { requireTeamSite } from '../../../management/siteAccess.js';
import { listAnnotations } from '../../../stores/meta/annotations.js';
import { type ManagementDeps, PROVISION, READ } from './context.js';

/**
 * `/api/v1/sites/{site_id}/annotations`: the dated notes the dashboard's graph marks
 * (docs/management-api.md "Annotations"). Reading takes `sites:read`, changing `sites:provision`,
 * as goals do.
 */
export function annotationRoutes(app: FastifyInstance, deps: ManagementDeps): void {
  const { db, clock } = deps;

  app.get('/api/v1/sites/:site_id/annotations', READ, async (request): Promise<AnnotationList> => {
    const { site_id } = parsePayload(siteIdParams, request.params);
    const days = parsePayload(annotationDays, request.query ?? {});
    const site = await requireTeamSite(db, request.caller, site_id, clock.now());
    return { annotations: (await listAnnotations(db, site.id, days)).map(annotationJson) };
  });

  app.post('/api/v1/sites/:site_id/annotations', PROVISION, async (request, reply): Promise<Annotation> => {
    const { site_id } = parsePayload(siteIdParams, request.params);
    const content = parsePayload(annotationContent, request.body);
    const now = clock.now();
    const site = await requireTeamSite(db, request.caller, site_id, now);
    reply.code(201);
    return annotationJson(await addAnnotation(db, site.id, content, now));
  });

  app.put('/api/v1/sites/:site_id/annotations/:annotation_id', PROVISION, async (request): Promise<Annotation> => {
    const { site_id, annotation_id } = parsePayload(annotationParams, request.params);
    const content = parsePayload(annotationContent, request.body);
    const now = clock.now();
    const site = await requireTeamSite(db, request.caller, site_id, now);
    return annotationJson(await changeAnnotation(db, site.id, annotation_id, content, now));
  });

  app.delete('/api/v1/sites/:site_id/annotations/:annotation_id', PROVISION, async (request): Promise<Acknowledgement<'deleted'>> => {
    const { site_id, annotation_id } = parsePayload(annotationParams, request.params);
    const site = await requireTeamSite(db, request.caller, site_id, clock.now());
    await removeAnnotation(db, site.id, annotation_id);
    return { deleted: true };
  });
}
