import { useEffect, useState } from 'react';
import { useDashboard } from '../context';
import { countryMatches, regionMatches, useRegionNames, valueLabel } from '../places';

/** A value to offer: what the engine stores, how it reads, and its visitors in the view's range. */
export interface Suggestion {
  value: string;
  label: string;
  visitors: number;
}

/** Places are matched by name here, as the engine knows only their codes: the whole list is read once. */
const MATCHED_HERE: Record<string, (value: string, typed: string) => boolean> = {
  'visit:country': countryMatches,
  'visit:region': regionMatches,
  'event:goal': (value, typed) => value.toLowerCase().includes(typed.toLowerCase()),
};

/**
 * Values to suggest for a filter, most visitors first: the dimension's values in the view's
 * range that contain what is being typed (by name for places, so "germ" finds Germany), asked for
 * once typing pauses. Goals without visitors yet are offered too; nothing before a property is chosen.
 */
export function useValueSuggestions(dimension: string, typed: string, enabled: boolean): Suggestion[] {
  const { query, site } = useDashboard();
  // The rows remember the dimension they were read for: another dimension's values, still shown
  // while its own are asked for, would read as wrong names (a page path offered as a country).
  const [answer, setAnswer] = useState<{ dimension: string; rows: Omit<Suggestion, 'label'>[] }>({ dimension, rows: [] });
  const matchedHere = MATCHED_HERE[dimension];
  const search = matchedHere ? '' : typed.trim();
  // Region names load in their own chunk; the labels are read again once they are in.
  useRegionNames(dimension === 'visit:region');
  useEffect(() => {
    if (!enabled) return setAnswer({ dimension, rows: [] });
    const controller = new AbortController();
    const timer = setTimeout(() => {
      query(
        {
          metrics: ['visitors'],
          dimensions: [dimension],
          filters: search ? [['contains', dimension, [search], { case_sensitive: false }]] : [],
          pagination: { limit: matchedHere ? 300 : 20 },
        },
        controller.signal,
      )
        .then((result) =>
          setAnswer({
            dimension,
            rows: result.results.map((row) => ({ value: String(row.dimensions[0] ?? ''), visitors: row.metrics[0] ?? 0 })).filter((row) => row.value),
          }),
        )
        .catch(() => setAnswer({ dimension, rows: [] }));
    }, 200);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, dimension, enabled, search, matchedHere]);
  const rows = answer.dimension === dimension ? answer.rows : [];
  const named = rows.map((row) => ({ ...row, label: valueLabel(dimension, row.value) }));
  if (!matchedHere) return named;
  const goals = dimension === 'event:goal' ? site.goals.filter((goal) => !named.some((row) => row.value === goal.display_name)) : [];
  const all = [...named, ...goals.map((goal) => ({ value: goal.display_name, label: goal.display_name, visitors: 0 }))];
  return all.filter((row) => !typed.trim() || matchedHere(row.value, typed.trim())).slice(0, 20);
}
