import { SITE_EDITORS } from '../contracts/roles.js';
import type { SegmentChange, Segment as SegmentJson, SegmentPayload } from '../contracts/segments.js';
import { AppError, badRequest, notFound } from '../errors.js';
import type { FilterTree } from '../query/model.js';
import { parseFilter, SEGMENT } from '../query/request/v2.js';
import type { ApiCaller } from '../stores/meta/apiKeys.js';
import type { MetaDb } from '../stores/meta/database.js';
import { deleteSegment, findSegment, insertSegment, listVisibleSegments, type Segment, type SegmentFields, updateSegment } from '../stores/meta/segments.js';
import type { Site } from '../stores/meta/sites.js';
import { requireRole } from './siteAccess.js';

/**
 * Saved segments (docs/dashboard.md "Segments"), with Plausible's rules: anyone who sees the
 * dashboard keeps personal segments of their own; sharing one with the site (type "site"), or
 * changing a shared one, is for editors and up with a key that may change the site's set-up.
 */

export function segmentJson(segment: Segment): SegmentJson {
  return {
    id: segment.id,
    name: segment.name,
    type: segment.type,
    segment_data: { filters: segment.filters, labels: segment.labels },
    owner_id: segment.ownerId,
    owner_name: segment.ownerName,
    inserted_at: new Date(segment.createdAt).toISOString(),
    updated_at: new Date(segment.updatedAt).toISOString(),
  };
}

export const visibleSegments = (db: MetaDb, site: Site, caller: ApiCaller) => listVisibleSegments(db, site.id, caller.userId);

export async function createSegment(db: MetaDb, site: Site, caller: ApiCaller, payload: SegmentPayload, now: number): Promise<Segment> {
  const fields = segmentFields(payload);
  if (fields.type === 'site') await requireSharing(db, caller);
  return insertSegment(db, { ...fields, siteId: site.id, ownerId: caller.userId }, now);
}

export async function changeSegment(db: MetaDb, site: Site, caller: ApiCaller, segmentId: number, change: SegmentChange, now: number): Promise<Segment> {
  const segment = await requireOwnSegment(db, site, caller, segmentId);
  const fields = segmentFields({
    name: change.name ?? segment.name,
    type: change.type ?? segment.type,
    segment_data: change.segment_data ?? { filters: segment.filters, labels: segment.labels },
  });
  if (fields.type === 'site' && segment.type === 'personal') await requireSharing(db, caller);
  return (await updateSegment(db, site.id, segment.id, fields, now)) ?? segment;
}

export async function removeSegment(db: MetaDb, site: Site, caller: ApiCaller, segmentId: number): Promise<void> {
  const segment = await requireOwnSegment(db, site, caller, segmentId);
  await deleteSegment(db, site.id, segment.id);
}

/**
 * A segment the caller may change: their own personal one, or a shared one when they may share.
 * Another's personal segment is answered as missing, as it is not listed to them either.
 */
async function requireOwnSegment(db: MetaDb, site: Site, caller: ApiCaller, segmentId: number): Promise<Segment> {
  const segment = await findSegment(db, site.id, segmentId);
  if (!segment || (segment.type === 'personal' && segment.ownerId !== caller.userId)) throw notFound('Segment could not be found.');
  if (segment.type === 'site') await requireSharing(db, caller);
  return segment;
}

async function requireSharing(db: MetaDb, caller: ApiCaller): Promise<void> {
  if (!caller.scopes.includes('sites:provision')) {
    throw new AppError(403, 'insufficient_scope', 'A segment shared with the site is part of its set-up: this needs the "sites:provision" scope.');
  }
  await requireRole(db, caller, SITE_EDITORS, 'share segments with the site or change shared ones');
}

/** The stored fields of a payload, its filters checked by the query engine's own parser. */
function segmentFields(payload: SegmentPayload): SegmentFields {
  const filters = payload.segment_data.filters;
  filters.forEach((filter, i) => {
    const tree = parseFilter(filter, ['segment_data', 'filters', i], false);
    if (holdsSegment(tree))
      throw badRequest('invalid_segment', `#/segment_data/filters/${i}: a segment cannot hold another segment; save its filters instead.`);
  });
  return { name: payload.name, type: payload.type ?? 'personal', filters, labels: payload.segment_data.labels ?? {} };
}

function holdsSegment(tree: FilterTree): boolean {
  if ('dimension' in tree) return tree.dimension === SEGMENT;
  return 'children' in tree ? tree.children.some(holdsSegment) : holdsSegment(tree.child);
}
