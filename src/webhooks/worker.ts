import type { SecretBox } from '../accounts/secretBox.js';
import type { Clock } from '../clock.js';
import { ATTEMPT_TIMEOUT_MS } from '../contracts/webhookPolicy.js';
import type { Mailer } from '../mail/mailer.js';
import type { MetaDb } from '../stores/meta/database.js';
import type { MetaDialect } from '../stores/meta/migrations/index.js';
import { claimDueDeliveries, closeUnattempted, type DeliveryJob, fanOutEvents, loadDeliveryJob, recordAttempt } from './deliveries.js';
import { type Notice, teamOwnerEmails } from './notices.js';
import { deliveryBody, deliveryHeaders } from './payload.js';
import { type Resolver, sendWebhook } from './sender.js';
import { liveSecrets } from './webhooks.js';

export interface WorkerLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface WebhookWorkerOptions {
  db: MetaDb;
  dialect: MetaDialect;
  clock: Clock;
  logger: WorkerLogger;
  /** WEBHOOK_ALLOW_PRIVATE: deliver to private and loopback addresses (internal receivers). */
  allowPrivate: boolean;
  /** Opens the stored (sealed) signing secrets. */
  secrets: SecretBox;
  /** Owners are emailed about broken endpoints when a mailer is configured (SMTP_URL). */
  mailer?: Mailer | undefined;
  /** Real milliseconds between polls of the background loop. */
  pollIntervalMs?: number;
  /** Deliveries attempted at once. */
  concurrency?: number;
  /** Clock milliseconds a claim lasts; a worker that dies mid-attempt frees its rows after this. */
  leaseMs?: number;
  attemptTimeoutMs?: number;
  /** Name resolution; tests point made-up names at loopback receivers. */
  resolve?: Resolver;
  /** Certificate authorities to trust instead of the system's; only tests set it. */
  tlsCa?: string | Buffer;
}

export interface TickSummary {
  /** Deliveries created from outbox events. */
  queued: number;
  attempted: number;
  succeeded: number;
}

export interface WebhookWorker {
  /** Fans out pending events and attempts every delivery due at `clock.now()`; resolves when done. */
  tick(): Promise<TickSummary>;
  /** Starts polling in the background. */
  start(): void;
  /** Stops polling and waits for the attempts in flight; `tick()` still works afterwards. */
  stop(): Promise<void>;
}

/** Logs each notice and, with a mailer, emails it to the team's owners; a failed mail is logged, not retried. */
async function announce(options: WebhookWorkerOptions, notices: Notice[]): Promise<void> {
  const { db, logger, mailer } = options;
  for (const notice of notices) {
    logger.warn({ teamId: notice.teamId, webhookId: notice.webhookId, kind: notice.kind }, notice.message);
    if (!mailer) continue;
    try {
      const owners = await teamOwnerEmails(db, notice.teamId);
      if (owners.length > 0) await mailer.send({ to: owners, subject: 'A webhook endpoint needs attention', text: notice.message });
    } catch (error) {
      logger.error({ err: error, teamId: notice.teamId }, 'could not email the webhook notice');
    }
  }
}

/** One claimed delivery: sent and recorded, or closed unsent when its team or endpoint says so. */
async function attemptDelivery(
  options: WebhookWorkerOptions,
  job: DeliveryJob,
  token: string,
  timeoutMs: number,
): Promise<'withheld' | 'cancelled' | 'succeeded' | 'failed'> {
  const { db, clock } = options;
  if (job.teamLocked || job.webhookStopped) {
    const state = job.teamLocked ? 'withheld' : 'cancelled';
    await closeUnattempted(db, job, token, state, clock.now());
    return state;
  }
  const now = clock.now();
  const body = deliveryBody(job.event);
  const headers = deliveryHeaders({
    event: job.event,
    deliveryId: job.deliveryId,
    secrets: liveSecrets(job, now).map((sealed) => options.secrets.open(sealed)),
    body,
    now,
  });
  const outcome = await sendWebhook({
    url: job.url,
    headers,
    body,
    timeoutMs,
    allowPrivate: options.allowPrivate,
    resolve: options.resolve,
    tlsCa: options.tlsCa,
  });
  const { notices } = await recordAttempt(db, job, token, outcome, now);
  await announce(options, notices);
  return outcome.ok ? 'succeeded' : 'failed';
}

/**
 * Delivers webhooks outside the request path. All state is in the metadata store, so a
 * restarted or a second process simply continues: claims hand each delivery to one worker,
 * and a delivery recorded as succeeded is never sent again.
 */
export function createWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { db, dialect, clock, logger } = options;
  const concurrency = options.concurrency ?? 8;
  const leaseMs = options.leaseMs ?? 120_000;
  const timeoutMs = options.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS;
  let running: Promise<TickSummary> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let started = false;
  let stopping = false;

  async function runDue(): Promise<TickSummary> {
    const summary: TickSummary = { queued: await fanOutEvents(db, clock.now()), attempted: 0, succeeded: 0 };
    while (!stopping) {
      const { token, ids, perWebhook } = await claimDueDeliveries(db, dialect, clock.now(), { limit: concurrency, leaseMs });
      if (ids.length === 0) return summary;
      const runOne = async (id: number) => {
        try {
          const job = await loadDeliveryJob(db, id, token);
          if (!job) return;
          const result = await attemptDelivery(options, job, token, timeoutMs);
          if (result === 'succeeded' || result === 'failed') summary.attempted += 1;
          if (result === 'succeeded') summary.succeeded += 1;
        } catch (error) {
          // The claim lapses and another tick retries; one bad row must not stall the rest.
          logger.error({ err: error, deliveryId: id }, 'webhook delivery attempt failed');
        }
      };
      // Endpoints in parallel, one endpoint's deliveries one after another, each read just
      // before it is sent: the failure that stops an endpoint also holds back the rest of its
      // batch, so nothing goes out after the 15th. (A batch of `concurrency` attempts at the
      // time-out each must fit in the lease.)
      await Promise.all(
        perWebhook.map(async (queue) => {
          for (const id of queue) await runOne(id);
        }),
      );
    }
    return summary;
  }

  function tick(): Promise<TickSummary> {
    running ??= runDue().finally(() => {
      running = undefined;
    });
    return running;
  }

  function schedule(): void {
    if (!started) return;
    timer = setTimeout(() => {
      tick()
        .catch((error: unknown) => logger.error({ err: error }, 'webhook worker tick failed'))
        .finally(schedule);
    }, options.pollIntervalMs ?? 1000);
    timer.unref();
  }

  return {
    tick,
    start() {
      if (started) return;
      started = true;
      stopping = false;
      schedule();
    },
    async stop() {
      started = false;
      // Finish the batch in flight, claim nothing more.
      stopping = true;
      clearTimeout(timer);
      await running?.catch(() => undefined);
      stopping = false;
    },
  };
}
