import type { FastifyInstance } from 'fastify';
import type { Acknowledgement } from '../../../contracts/acknowledgements.js';
import { segmentParams, siteIdParams } from '../../../contracts/params.js';
import { type Segment, type SegmentList, segmentChange, segmentPayload } from '../../../contracts/segments.js';
import { parsePayload } from '../../../management/payload.js';
import { changeSegment, createSegment, removeSegment, segmentJson, visibleSegments } from '../../../management/segments.js';
import { requireTeamSite } from '../../../management/siteAccess.js';
import { type ManagementDeps, READ } from './context.js';

/**
 * A site's saved segments (docs/management-api.md "Segments"). Every route needs "sites:read", as
 * a personal segment is its owner's own view; sharing one with the site also needs
 * "sites:provision" and an editor's role (src/management/segments.ts).
 */
export function segmentRoutes(app: FastifyInstance, deps: ManagementDeps): void {
  const { db, clock } = deps;
  const siteOf = async (request: { params: unknown; caller: Parameters<typeof requireTeamSite>[1] }) =>
    requireTeamSite(db, request.caller, parsePayload(siteIdParams, request.params).site_id, clock.now());
  const segmentOf = async (request: { params: unknown; caller: Parameters<typeof requireTeamSite>[1] }) => {
    const { site_id, segment_id } = parsePayload(segmentParams, request.params);
    return { site: await requireTeamSite(db, request.caller, site_id, clock.now()), segmentId: segment_id };
  };

  app.get('/api/v1/sites/:site_id/segments', READ, async (request): Promise<SegmentList> => {
    const site = await siteOf(request);
    return { segments: (await visibleSegments(db, site, request.caller)).map(segmentJson) };
  });

  app.post('/api/v1/sites/:site_id/segments', { ...READ, bodyLimit: 256 * 1024 }, async (request, reply): Promise<Segment> => {
    const site = await siteOf(request);
    const payload = parsePayload(segmentPayload, request.body);
    const segment = await createSegment(db, site, request.caller, payload, clock.now());
    reply.code(201);
    return segmentJson(segment);
  });

  app.patch('/api/v1/sites/:site_id/segments/:segment_id', { ...READ, bodyLimit: 256 * 1024 }, async (request): Promise<Segment> => {
    const { site, segmentId } = await segmentOf(request);
    const change = parsePayload(segmentChange, request.body);
    return segmentJson(await changeSegment(db, site, request.caller, segmentId, change, clock.now()));
  });

  app.delete('/api/v1/sites/:site_id/segments/:segment_id', READ, async (request): Promise<Acknowledgement<'deleted'>> => {
    const { site, segmentId } = await segmentOf(request);
    await removeSegment(db, site, request.caller, segmentId);
    return { deleted: true };
  });
}
