import { badRequest } from '../../errors.js';
import type { MetaDb } from '../../stores/meta/database.js';
import { findSegment } from '../../stores/meta/segments.js';
import type { FilterTree, SiteContext } from '../model.js';
import { parseFilter, SEGMENT } from '../request/v2.js';

/**
 * Replaces each `["is", "segment", [id, …]]` leaf with the saved segments' filters (ANDed within a
 * segment, several segments ORed as any `is` values are), as the reference resolves them before
 * building (reference "3.3"). A segment must be one of the site's that the viewer sees: a shared
 * one, or their own personal one (`viewerId` null, as on a shared link: shared ones only).
 */
export async function expandSegments(db: MetaDb, site: SiteContext, filters: FilterTree[], viewerId: number | null): Promise<FilterTree[]> {
  if (!filters.some(mentionsSegment)) return filters;
  const expand = async (tree: FilterTree): Promise<FilterTree> => {
    if ('dimension' in tree) {
      if (tree.dimension !== SEGMENT) return tree;
      const segments = await Promise.all(tree.values.map((id) => segmentFilters(db, site, Number(id), viewerId)));
      return segments.length === 1 ? segments[0]! : { op: 'or', children: segments };
    }
    if ('children' in tree) return { op: tree.op, children: await Promise.all(tree.children.map(expand)) };
    return { op: tree.op, child: await expand(tree.child) };
  };
  return Promise.all(filters.map(expand));
}

function mentionsSegment(tree: FilterTree): boolean {
  if ('dimension' in tree) return tree.dimension === SEGMENT;
  return 'children' in tree ? tree.children.some(mentionsSegment) : mentionsSegment(tree.child);
}

async function segmentFilters(db: MetaDb, site: SiteContext, id: number, viewerId: number | null): Promise<FilterTree> {
  const segment = await findSegment(db, site.id, id);
  if (!segment || (segment.type === 'personal' && (viewerId === null || segment.ownerId !== viewerId))) {
    throw badRequest(
      'invalid_filter',
      `There is no segment ${id} among the segments of ${site.domain} you can use; GET /api/v1/sites/${site.domain}/segments lists them.`,
    );
  }
  // Saved filters were checked when saved (src/management/segments.ts) and hold no segment themselves.
  const children = segment.filters.map((filter, i) => parseFilter(filter, ['segment', id, 'filters', i], false));
  return children.length === 1 ? children[0]! : { op: 'and', children };
}
