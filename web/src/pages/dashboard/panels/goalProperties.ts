import { useEffect, useState } from 'react';
import { useDashboard } from '../context';
import { panelError } from './panelError';

/**
 * How many of the site's properties are asked about under a goal filter: one small count each,
 * so a site that declared hundreds does not send hundreds of queries per view.
 */
const ASKED = 30;

/**
 * Of the site's custom properties, those the view's events carry (in the site's order), asked
 * of the engine as one count per property under the view's filters: with a goal filtered, the
 * properties that goal's events record, as Plausible's properties tab offers under a goal. Null
 * while the counts are on their way or when `wanted` is false.
 */
export function useCarriedProperties(properties: readonly string[], wanted: boolean): { carried: string[] | null; error: string | null } {
  const { query } = useDashboard();
  const [carried, setCarried] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const key = properties.slice(0, ASKED).join('\n');
  useEffect(() => {
    setCarried(null);
    setError(null);
    if (!wanted || !key) return;
    const asked = key.split('\n');
    const controller = new AbortController();
    Promise.all(
      asked.map((name) =>
        query({ metrics: ['events'], filters: [['is_not', `event:props:${name}`, ['(none)']]] }, controller.signal).then(
          (answer) => (answer.results[0]?.metrics[0] ?? 0) > 0,
        ),
      ),
    )
      .then((present) => setCarried(asked.filter((_, i) => present[i])))
      .catch((failure: Error) => !controller.signal.aborted && setError(panelError(failure)));
    return () => controller.abort();
  }, [query, key, wanted]);
  return { carried, error };
}
