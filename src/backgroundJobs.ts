import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import { purgeDeletedSites } from './management/sitePurge.js';
import { deleteExpiredRawEvents } from './rollups/retention.js';
import type { Rollups } from './rollups/rollups.js';
import type { EventStore } from './stores/clickhouse/eventStore.js';
import { pruneApiUsage } from './stores/meta/apiKeys.js';
import type { MetaDb } from './stores/meta/database.js';
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
 */
export function startBackgroundJobs(deps: { meta: MetaDb; events: EventStore; rollups: Rollups; clock: Clock; log: FastifyBaseLogger }): BackgroundJobs {
  let running: Promise<void> | null = null;
  const runOnce = () => {
    running ??= (async () => {
      const now = deps.clock.now();
      try {
        const purged = await purgeDeletedSites(deps.meta, deps.events, now);
        if (purged.length > 0) deps.log.info({ sites: purged }, 'purged deleted sites');
        await pruneApiUsage(deps.meta, now - 2 * 3_600_000);
        await deleteExpiredWebSessions(deps.meta, now);
        const sites = await liveSites(deps.meta);
        const rolled = await deps.rollups.runOnce(sites, now);
        if (rolled.days > 0) deps.log.info(rolled, 'rolled up closed days');
        const cut = await deleteExpiredRawEvents({ db: deps.meta, client: deps.events.jobs, cluster: deps.events.cluster, rollups: deps.rollups }, sites, now);
        if (cut.length > 0) deps.log.info({ sites: cut }, 'deleted raw events past their retention');
      } catch (error) {
        deps.log.error({ err: error }, 'background job failed; retrying next round');
      }
    })().finally(() => {
      running = null;
    });
    return running;
  };
  const timer = setInterval(() => void runOnce(), EVERY_MS);
  timer.unref();
  // A first round soon after start: a restarted service rolls up the days it missed at once.
  const first = setTimeout(() => void runOnce(), FIRST_ROUND_MS);
  first.unref();
  return {
    runOnce,
    async stop() {
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
