import { outcomeGuideList } from '@contracts/ingestion';
import { api } from '../api';
import { useResource } from './useResource';

/** The server's one guide to ingestion outcomes, for the health panel and the classification switches. */
export function useOutcomeGuide() {
  return useResource((signal) => api.get('/app/api/ingestion-outcomes', outcomeGuideList, signal), []);
}
