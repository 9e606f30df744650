import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import { purgeDeletedSites } from './management/sitePurge.js';
import type { EmailDeps } from './reports/emailDeps.js';
import { sendDueReports } from './reports/reportSender.js';
import { runTrafficNotices } from './reports/trafficNotices.js';
import { deleteExpiredRawEvents } from './rollups/retention.js';
import type { Rollups } from './rollups/rollups.js';
import type { EventStore } from './stores/clickhouse/eventStore.js';
import { deleteExpiredAccountTokens } from './stores/meta/accountTokens.js';
import { pruneApiUsage } from './stores/meta/apiKeys.js';
import type { MetaDb } from './stores/meta/database.js';
import { createLeases, type Leases, pruneLeases } from './stores/meta/leases.js';
import { liveSites } from './stores/meta/sites.js';
import { deleteExpiredWebSessions } from './stores/meta/webSessions.js';

const EVERY_MS = 5 * 60_000;
const FIRST_ROUND_MS = 30_000;

export interface BackgroundJobs {
  /**
   * One round of every job, on the clock, begun after the call: a round already under way took
   * its sites before the caller's change, so it is waited for and one more follows (the timers
   * take the round under way instead). Tests call it, after stop() too.
   */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

/** Reports and notices apart from the other jobs: a failed roll-up round must not hold back Monday's reports. */
async function runEmailJobs(leases: Leases, emails: EmailDeps, log: FastifyBaseLogger): Promise<void> {
  try {
    await leases.run('traffic-notices', () => runTrafficNotices(emails));
    if (emails.mailer) await leases.run('email-reports', () => sendDueReports(emails));
  } catch (error) {
    log.error({ err: error }, 'email reports or traffic notices failed; retrying next round');
  }
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
 *
 * A holder releases the `rollups` lease when its round ends, so a row that outlives its expiry
 * belongs to a holder that died mid-round. Every worker watches the row (`watchRollups`) and runs
 * a round as soon as it expires: the dead holder's round is taken over within one lease period of
 * its last renewal, rather than at this worker's next round (docs/scaling.md, Leases).
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
  /** Email reports and traffic notices (src/reports/), each round under the `email-reports` and `traffic-notices` leases. */
  emails?: EmailDeps;
}): BackgroundJobs {
  const leases =
    deps.leases ?? createLeases({ db: deps.meta, clock: deps.clock, onError: (error) => deps.log.warn({ err: error }, 'could not renew a lease') });
  let running: Promise<void> | null = null;
  /** The one round waiting for `running` to end: every call made meanwhile shares it. */
  let next: Promise<void> | null = null;
  let stopped = false;
  const timers = deps.timers ?? true;
  const runOnce = (): Promise<void> => {
    if (running) {
      next ??= running.then(() => {
        next = null;
        return runOnce();
      });
      return next;
    }
    running = (async () => {
      const now = deps.clock.now();
      try {
        await leases.run('purge', async () => {
          const purged = await purgeDeletedSites(deps.meta, deps.events, now);
          if (purged.length > 0) deps.log.info({ sites: purged }, 'purged deleted sites');
        });
        // Idempotent deletes: any node may run them.
        await pruneApiUsage(deps.meta, now - 2 * 3_600_000);
        await deleteExpiredWebSessions(deps.meta, now);
        await deleteExpiredAccountTokens(deps.meta, now);
        await pruneLeases(deps.meta, now);
        await leases.run('rollups', async () => {
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
      } catch (error) {
        deps.log.error({ err: error }, 'background job failed; retrying next round');
      }
      if (deps.emails) await runEmailJobs(leases, deps.emails, deps.log);
    })().finally(() => {
      running = null;
    });
    return running;
  };
  /** The timers' round: one under way serves them, and the next tick comes soon enough. */
  const tick = () => running ?? runOnce();
  /**
   * Reads the `rollups` lease at a third of a lease period, or at its expiry when that comes
   * sooner; a row found expired is a dead holder's, and the round it left runs here at once.
   */
  let watch: NodeJS.Timeout | undefined;
  const watchRollups = async () => {
    let wait = Math.floor(leases.periodMs / 3);
    try {
      const lease = await leases.read('rollups');
      const left = lease === undefined ? wait : lease.expiresAt - deps.clock.now();
      if (left <= 0) await tick();
      else wait = Math.min(wait, left);
    } catch (error) {
      deps.log.warn({ err: error }, 'could not read the roll-up lease');
    }
    if (stopped) return;
    watch = setTimeout(() => void watchRollups(), wait);
    watch.unref();
  };
  if (timers) void watchRollups();
  const timer = timers ? setInterval(() => void tick(), EVERY_MS) : undefined;
  timer?.unref();
  // A first round soon after start: a restarted service rolls up the days it missed at once.
  const first = timers ? setTimeout(() => void tick(), FIRST_ROUND_MS) : undefined;
  first?.unref();
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearTimeout(watch);
      clearInterval(timer);
      await next;
      await running;
    },
  };
}
