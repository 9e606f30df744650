import { useEffect, useState } from 'react';
import { useDashboard } from '../context';

/**
 * Values to suggest for a filter: the dimension's most common values in the view's range that
 * contain what is being typed, asked for once typing pauses. None for goals (chosen from a list)
 * or before a property is chosen.
 */
export function useValueSuggestions(dimension: string, typed: string, enabled: boolean): string[] {
  const { query } = useDashboard();
  const [suggestions, setSuggestions] = useState<string[]>([]);
  useEffect(() => {
    if (!enabled) return setSuggestions([]);
    const controller = new AbortController();
    const timer = setTimeout(() => {
      query(
        {
          metrics: ['visitors'],
          dimensions: [dimension],
          filters: typed.trim() ? [['contains', dimension, [typed.trim()]]] : [],
          pagination: { limit: 20 },
        },
        controller.signal,
      )
        .then((result) => setSuggestions(result.results.map((row) => row.dimensions[0] ?? '').filter(Boolean)))
        .catch(() => setSuggestions([]));
    }, 200);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, dimension, enabled, typed]);
  return suggestions;
}
