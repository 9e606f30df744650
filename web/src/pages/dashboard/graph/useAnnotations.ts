import { type Annotation, annotationList } from '@contracts/annotations';
import { useCallback, useEffect, useState } from 'react';
import { api } from '../../../api';

const NONE: Annotation[] = [];

/**
 * The site's graph notes from `path` (the signed-in route or a shared link's), read again after
 * the dashboard changes one. A failure leaves the graph without notes rather than in error.
 */
export function useAnnotations(path: string | undefined) {
  const [annotations, setAnnotations] = useState<Annotation[]>(NONE);
  const [version, setVersion] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: version asks again after a change
  useEffect(() => {
    if (!path) return;
    const controller = new AbortController();
    api
      .get(path, annotationList, controller.signal)
      .then((list) => setAnnotations(list.annotations))
      .catch(() => !controller.signal.aborted && setAnnotations(NONE));
    return () => controller.abort();
  }, [path, version]);
  const reload = useCallback(() => setVersion((n) => n + 1), []);
  return { annotations, reload };
}
