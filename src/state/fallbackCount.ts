import type { SharedState } from './redis.js';

/**
 * The health-panel reason for an event this node accepted on its own state because Redis did
 * not answer (src/ingest/outcomeGuide.ts explains it). Its rate limit and duplicate check then
 * counted this node's traffic only.
 */
export const STATE_UNAVAILABLE = 'state_unavailable';

/**
 * Wraps ingestion's "event about to be written" hook (the one place that knows the site of each
 * accepted event) to count STATE_UNAVAILABLE per site while the shared state is degraded. Without
 * STATE_URL the hook is returned as it is, so the embedded mode pays nothing.
 */
export function countingStateFallbacks(
  state: SharedState | null,
  counters: { count(siteId: number, at: number, reason: string): void },
  noteWrite: (siteId: number, at: number) => void,
): (siteId: number, at: number) => void {
  if (state === null) return noteWrite;
  return (siteId, at) => {
    noteWrite(siteId, at);
    if (state.degraded) counters.count(siteId, at, STATE_UNAVAILABLE);
  };
}
