import { queryResponse } from '@contracts/query';
import type { TeamApi } from '../../api';

export interface SiteTraffic {
  visitors: number | null;
  /** Against the 24 hours before, as a whole percentage; null when there is nothing to compare with. */
  change: number | null;
  hourly: number[];
  error: string | null;
}

/** Visitors in the last 24 hours, their change on the 24 hours before and their hourly line, from the query API (the key is the session). */
export async function trafficOf(api: TeamApi, domain: string): Promise<SiteTraffic> {
  try {
    const [total, hourly] = await Promise.all([
      api.post(
        '/api/v2/query',
        { site_id: domain, metrics: ['visitors'], date_range: '24h', include: { comparisons: { mode: 'previous_period' } } },
        queryResponse,
      ),
      api.post(
        '/api/v2/query',
        {
          site_id: domain,
          metrics: ['visitors'],
          date_range: '24h',
          dimensions: ['time:hour'],
          include: { time_labels: true },
        },
        queryResponse,
      ),
    ]);
    const labels = hourly.meta.time_labels ?? [];
    const byLabel = new Map(hourly.results.map((row) => [row.dimensions[0], row.metrics[0] ?? 0]));
    const row = total.results[0];
    return {
      visitors: row?.metrics[0] ?? 0,
      change: row?.comparison?.change[0] ?? null,
      hourly: labels.map((label) => byLabel.get(label) ?? 0),
      error: null,
    };
  } catch (failure) {
    return { visitors: null, change: null, hourly: [], error: failure instanceof Error ? failure.message : String(failure) };
  }
}
