import { LRUCache } from 'lru-cache';
import type { QueryConfig } from '../../config/config.js';
import { stringLiteral } from '../../stores/clickhouse/inlineParameters.js';
import { isAdditive } from '../metrics.js';
import type { DateRange, MetricSpec } from '../model.js';
import { type Statements, toMetricValue } from './execute.js';

/**
 * Sampling by visitor: above the configured number of events in the queried range (and unless
 * the query says `exact`), every statement reads `SAMPLE rate` on the tables' user_id sampling
 * key. The same rate serves the primary and comparison periods, so both read the same visitors.
 */

/**
 * Stored events as last counted: whether to sample needs only a rough size, so counts are kept for
 * a while. Held by the engine (its deps), one entry per site and range, the oldest dropped first.
 */
export type EventCounts = LRUCache<string, number>;
export const eventCountsCache = (): EventCounts => new LRUCache({ max: 10_000, ttl: 10 * 60_000 });

/** Smallest fraction read, so a sample never collapses to a handful of visitors. */
const MIN_RATE = 0.01;
/** Below this many raw rows behind a sampled answer, the answer is called sparse. */
export const SPARSE_ROWS = 100;

/**
 * The stored events' row count, read from part metadata. On a cluster the rows sit in each
 * shard's `events_local` (`events` is the Distributed table in front, with no parts of its own);
 * `cluster()` reads one replica of each shard, so replicas are not counted twice.
 */
export function storedEventsStatement(cluster: string | null): string {
  const parts = cluster === null ? 'system.parts' : `cluster(${stringLiteral(cluster)}, system.parts)`;
  const table = cluster === null ? 'events' : 'events_local';
  return `SELECT sum(rows) AS events FROM ${parts} WHERE active AND database = currentDatabase() AND table = '${table}'`;
}

export async function chooseSampleRate(
  sql: Statements,
  limits: QueryConfig,
  site: { id: number },
  ranges: DateRange[],
  cluster: string | null,
  counts: EventCounts,
): Promise<number | null> {
  const cachedCount = async (key: string, count: () => Promise<Record<string, unknown>[]>): Promise<number> => {
    let value = counts.get(key);
    if (value === undefined) {
      value = toMetricValue((await count())[0]?.events) ?? 0;
      counts.set(key, value);
    }
    return value;
  };
  // The whole table's row count is metadata; below the threshold no site's range can exceed it.
  const total = await cachedCount('table', () => sql(storedEventsStatement(cluster), {}));
  if (total <= limits.samplingThresholdEvents) return null;
  const first = Math.min(...ranges.map((r) => r.first));
  const last = Math.max(...ranges.map((r) => r.last));
  const events = await cachedCount(`${site.id}:${first}:${last}`, () =>
    sql(
      "SELECT count() AS events FROM events WHERE site_id = {site:UInt64} AND timestamp >= toDateTime({first:UInt32}, 'UTC') AND timestamp <= toDateTime({last:UInt32}, 'UTC')",
      { site: site.id, first: Math.floor(first / 1000), last: Math.floor(last / 1000) },
    ),
  );
  return sampleRateFor(events, limits.samplingThresholdEvents);
}

/** Read about `threshold` events' worth: the rate rounded down to two decimals, at least MIN_RATE. */
export function sampleRateFor(events: number, threshold: number): number | null {
  if (events <= threshold) return null;
  const rate = Math.max(MIN_RATE, Math.floor((threshold / events) * 100) / 100);
  return rate >= 1 ? null : rate;
}

export function samplingMeta(rate: number, metrics: string[], specs: MetricSpec[], rawRows: number) {
  const warnings: { code: string; warning: string }[] = [];
  if (rawRows === 0)
    warnings.push({
      code: 'empty_sample',
      warning: `The ${Math.round(rate * 100)} % sample of visitors holds no matching events; the true figures may still be above zero. Query with "exact": true to read everything.`,
    });
  else if (rawRows < SPARSE_ROWS)
    warnings.push({
      code: 'sparse_sample',
      warning: `Only ${rawRows} sampled events stand behind these figures; they are rough estimates. Query with "exact": true to read everything.`,
    });
  return {
    rate,
    scaled_metrics: metrics.filter((_, i) => isAdditive(specs[i]!)),
    direct_metrics: metrics.filter((_, i) => !isAdditive(specs[i]!)),
    ...(warnings.length ? { warnings } : {}),
  };
}
