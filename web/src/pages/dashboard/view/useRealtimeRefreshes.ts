import { useEffect, useState } from 'react';

export const REALTIME_REFRESH_MS = 30_000;

/** The realtime view refreshes itself: a count that grows every 30 seconds, so each panel asks again. */
export function useRealtimeRefreshes(period: string): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (period !== 'realtime') return;
    const timer = setInterval(() => setTick((n) => n + 1), REALTIME_REFRESH_MS);
    return () => clearInterval(timer);
  }, [period]);
  return tick;
}
