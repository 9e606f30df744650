import { type Segment, segment, segmentList } from '@contracts/segments';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { teamApi } from '../../../api';
import type { Filter } from '../context';
import { setSegmentNames, valueLabel } from '../places';

/** A filter that applies a saved segment (docs/query-api.md "Segments"). */
export const segmentFilter = (id: number): Filter => ['is', 'segment', [id]];
const isSegmentFilter = (filter: Filter) => filter[0] === 'is' && filter[1] === 'segment';

/** The view's filters other than segments: what a segment saves (a segment holds no segment). */
export const ownFilters = (filters: Filter[]) => filters.filter((filter) => !isSegmentFilter(filter));

/** How the saved filters' values read (a country code's name), kept with the segment as Plausible does. */
function labelsOf(filters: Filter[]): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const filter of filters) {
    const [, dimension, values] = filter;
    if (typeof dimension !== 'string' || !Array.isArray(values)) continue;
    for (const value of values) {
      const label = valueLabel(dimension, String(value));
      if (label !== String(value)) labels[String(value)] = label;
    }
  }
  return labels;
}

/**
 * The site's saved segments the viewer sees, and the changes they may make, through
 * /api/v1/sites/:site_id/segments with the session (src/api/routes/management/segments.ts).
 */
export function useSegments(domain: string, teamId: number) {
  const api = useMemo(() => teamApi(teamId), [teamId]);
  const path = `/api/v1/sites/${encodeURIComponent(domain)}/segments`;
  const [segments, setSegments] = useState<Segment[]>([]);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(
    () =>
      api
        .get(path, segmentList)
        .then(({ segments }) => {
          setSegmentNames(segments);
          setSegments(segments);
          setError(null);
        })
        .catch((failure: Error) => setError(failure.message)),
    [api, path],
  );
  useEffect(() => {
    void reload();
  }, [reload]);
  const changed = async (work: Promise<unknown>) => {
    await work;
    await reload();
  };
  return {
    segments,
    error,
    create: (name: string, shared: boolean, filters: Filter[]) =>
      api.post(path, { name, type: shared ? 'site' : 'personal', segment_data: { filters, labels: labelsOf(filters) } }, segment).then(async (made) => {
        await reload();
        return made;
      }),
    rename: (id: number, name: string) => changed(api.patch(`${path}/${id}`, { name })),
    update: (id: number, filters: Filter[]) => changed(api.patch(`${path}/${id}`, { segment_data: { filters, labels: labelsOf(filters) } })),
    remove: (id: number) => changed(api.delete(`${path}/${id}`)),
  };
}
