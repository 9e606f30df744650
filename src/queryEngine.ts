import { availableParallelism } from 'node:os';
import type { Clock } from './clock.js';
import type { Config } from './config/config.js';
import { loadExchangeRates } from './query/exchangeRates.js';
import { openRollupReads } from './query/rollupReads/rollupReads.js';
import type { QueryEngineDeps } from './query/run/engine.js';
import { createQueryScheduler } from './query/run/queryScheduler.js';
import { eventCountsCache } from './query/run/sampling.js';
import type { Rollups } from './rollups/rollups.js';
import type { EventStore } from './stores/clickhouse/eventStore.js';
import type { MetaStore } from './stores/meta/database.js';

/** The parts of a node (src/app.ts) the query engine is built from. */
export interface QueryEngineSources {
  config: Config;
  clock: Clock;
  meta: MetaStore;
  events: EventStore;
  rollups: Rollups;
}

/** The engine's dependencies from the node's: API-query ClickHouse connections, limits, rates, clock. */
export function queryEngineDeps(deps: QueryEngineSources): QueryEngineDeps {
  return {
    db: deps.meta.db,
    rollups: deps.rollups,
    rollupReads: openRollupReads(),
    eventCounts: eventCountsCache(),
    scheduler: createQueryScheduler({
      connections: deps.events.queries,
      perTeam: deps.config.query.perTeam,
      waitingPerTeam: deps.config.query.waitingPerTeam,
      timeoutSeconds: deps.config.query.timeoutSeconds,
      cores: deps.events.kind === 'embedded' ? availableParallelism() : null,
      now: () => performance.now(),
    }),
    limits: deps.config.query,
    cluster: deps.events.cluster,
    rates: loadExchangeRates(deps.config.query.exchangeRatesFile),
    now: () => deps.clock.now(),
  };
}
