import { useEffect, useState } from 'react';
import type { QueryInput, QueryResult } from '../context';
import { REALTIME_REFRESH_MS } from '../view/useRealtimeRefreshes';
import '../realtime.css';

/** Who counts as on the site now: visitors of the last five minutes, as Plausible counts them. */
export const CURRENT_VISITORS_RANGE = '5m';

/** "N current visitors", refreshed every 30 seconds; a click opens the realtime view. */
export function CurrentVisitors({ run, open }: { run: (input: QueryInput) => Promise<QueryResult>; open(): void }) {
  const [count, setCount] = useState<number | null>(null);
  useEffect(() => {
    const read = () =>
      run({ metrics: ['visitors'], date_range: CURRENT_VISITORS_RANGE })
        .then((result) => setCount(result.results[0]?.metrics[0] ?? 0))
        .catch(() => setCount(null));
    void read();
    const timer = setInterval(read, REALTIME_REFRESH_MS);
    return () => clearInterval(timer);
  }, [run]);
  return (
    <button type="button" className="current-visitors" title="Visitors in the last 5 minutes: open Realtime" onClick={open}>
      <span className="pulse" aria-hidden="true" />
      {count === null ? '…' : count} current visitor{count === 1 ? '' : 's'}
    </button>
  );
}
