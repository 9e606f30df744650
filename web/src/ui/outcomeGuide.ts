import { api } from '../api';
import { useResource } from './useResource';

/** What an ingestion outcome (a drop reason or a classification) means and what the owner can do (src/ingest/outcomeGuide.ts). */
export interface OutcomeGuide {
  label: string;
  meaning: string;
  action: string;
  kind: 'accepted' | 'classified' | 'dropped';
}

/** The server's one guide to ingestion outcomes, for the health panel and the classification switches. */
export function useOutcomeGuide() {
  return useResource((signal) => api.get<{ outcomes: Record<string, OutcomeGuide> }>('/app/api/ingestion-outcomes', signal), []);
}
