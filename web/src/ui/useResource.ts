import { useCallback, useEffect, useRef, useState } from 'react';

/** A loaded resource: its data once it came, the failure's sentence if it did not, and a way to load it again. */
export interface Resource<T> {
  data: T | null;
  error: string | null;
  reload(): void;
}

/** Loads a resource and reloads it after a change, so every change shows without a page reload. */
export function useResource<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[]): Resource<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what the load depends on
  useEffect(() => {
    const controller = new AbortController();
    loadRef
      .current(controller.signal)
      .then((value) => {
        setData(value);
        setError(null);
      })
      .catch((failure: unknown) => {
        if (!controller.signal.aborted) setError(failure instanceof Error ? failure.message : String(failure));
      });
    return () => controller.abort();
  }, [...deps, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, error, reload };
}
