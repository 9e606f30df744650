import { useEffect, useState } from 'react';
import type { QueryInput, QueryResult } from '../context';
import { REALTIME_REFRESH_MS } from '../view/useRealtimeRefreshes';

/** "N current visitors", refreshed every 30 seconds. */
export function CurrentVisitors({ run }: { run: (input: QueryInput) => Promise<QueryResult> }) {
  const [count, setCount] = useState<number | null>(null);
  useEffect(() => {
    const read = () =>
      run({ metrics: ['visitors'], date_range: 'realtime' })
        .then((result) => setCount(result.results[0]?.metrics[0] ?? 0))
        .catch(() => setCount(null));
    void read();
    const timer = setInterval(read, REALTIME_REFRESH_MS);
    return () => clearInterval(timer);
  }, [run]);
  return (
    <span className="current-visitors" title="Visitors in the last 30 minutes">
      <span className="pulse" aria-hidden="true" />
      {count === null ? '…' : count} current visitor{count === 1 ? '' : 's'}
    </span>
  );
}
