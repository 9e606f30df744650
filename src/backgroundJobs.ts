import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import { purgeDeletedSites } from './management/sitePurge.js';
import { deleteExpiredRawEvents } from './rollups/retention.js';
import type { Rollups } from './rollups/rollups.js';
import type { EventStore } from './stores/clickhouse/eventStore.js';
import { pruneApiUsage } from './stores/meta/apiKeys.js';
import type { MetaDb } from './stores/meta/database.js';
import { createLeases, LEASE_PERIOD_MS, type Leases, pruneLeases } from './stores/meta/leases.js';
import { liveSites } from './stores/meta/sites.js';
import { deleteExpiredWebSessions } from './stores/meta/webSessions.js';

const EVERY_MS = 5 * 60_000;
const FIRST_ROUND_MS = 30_000;

export interface BackgroundJobs {
  /** One round of every job, on the clock; the timer calls it, tests may too. */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Slow periodic work: rolling up closed days and deleting the raw events sites no longer keep,
 * purging deleted sites' data, forgetting finished rate windows and expired sign-ins.
 *
 * With several workers each round's purge, roll-ups and retention run on the node holding their
 * lease (`purge`, `rollups`, `retention`; src/stores/meta/leases.ts); the others pass them over.
 * Retention runs only within the roll-up lease, after that round's roll-ups, so it never deletes
 * the raw events of days another node is computing again. The roll-ups read every site's coverage
 * from the store before rolling, so days another node rolled up are not rolled twice.
 */
export function startBackgroundJobs(deps: {
  meta: MetaDb;
  events: EventStore;
  rollups: Rollups;
  clock: Clock;
  log: FastifyBaseLogger;
  /** This node's leases; one over `meta` and `clock` unless given (tests play several nodes). */
  leases?: Leases;
  /** Set false by tests that drive rounds themselves. */
  timers?: boolean;
}): BackgroundJobs {
  const leases =
    deps.leases ?? createLeases({ db: deps.meta, clock: deps.clock, onError: (error) => deps.log.warn({ err: error }, 'could not renew a lease') });
  let running: Promise<void> | null = null;
  let retry: NodeJS.Timeout | undefined;
  const timers = deps.timers ?? true;
  const runOnce = () => {
    running ??= (async () => {
      const now = deps.clock.now();
      try {
        await leases.run('purge', async () => {
          const purged = await purgeDeletedSites(deps.meta, deps.events, now);
          if (purged.length > 0) deps.log.info({ sites: purged }, 'purged deleted sites');
        });
        // Idempotent deletes: any node may run them.
        await pruneApiUsage(deps.meta, now - 2 * 3_600_000);
        await deleteExpiredWebSessions(deps.meta, now);
        await pruneLeases(deps.meta, now);
        const rolled = await leases.run('rollups', async () => {
          const sites = await liveSites(deps.meta);
          const rolled = await deps.rollups.runOnce(sites, now);
          if (rolled.days > 0) deps.log.info(rolled, 'rolled up closed days');
          await leases.run('retention', async () => {
            const cut = await deleteExpiredRawEvents(
              { db: deps.meta, client: deps.events.jobs, cluster: deps.events.cluster, rollups: deps.rollups },
              sites,
              now,
            );
            if (cut.length > 0) deps.log.info({ sites: cut }, 'deleted raw events past their retention');
          });
        });
        // Another node holds the roll-ups: if it has died, its lease lapses within one period, so
        // look again then rather than a whole round later (docs/scaling.md, Leases).
        if (!rolled.ran && timers) {
          clearTimeout(retry);
          retry = setTimeout(() => void runOnce(), LEASE_PERIOD_MS);
          retry.unref();
        }
      } catch (error) {
        deps.log.error({ err: error }, 'background job failed; retrying next round');
      }
    })().finally(() => {
      running = null;
    });
    return running;
  };
  const timer = timers ? setInterval(() => void runOnce(), EVERY_MS) : undefined;
  timer?.unref();
  // A first round soon after start: a restarted service rolls up the days it missed at once.
  const first = timers ? setTimeout(() => void runOnce(), FIRST_ROUND_MS) : undefined;
  first?.unref();
  return {
    runOnce,
    async stop() {
      clearTimeout(first);
      clearTimeout(retry);
      clearInterval(timer);
      await running;
    },
  };
}
