import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildHttpServer } from './api/httpServer.js';
import { type BackgroundJobs, startBackgroundJobs } from './backgroundJobs.js';
import { type Clock, systemClock } from './clock.js';
import type { Config } from './config/config.js';
import { createImportRunner, type ImportRunner } from './imports/importRunner.js';
import { createIngestion, type Ingestion } from './ingest/ingestion.js';
import { COVERAGE_RELOAD_MS, openRollups, type Rollups } from './rollups/rollups.js';
import { type EventStore, openEventStore } from './stores/clickhouse/eventStore.js';
import { type MetaStore, openMetaStore } from './stores/meta/database.js';
import { createLeases } from './stores/meta/leases.js';
import { type SecretBox, secretBoxFrom } from './webhooks/secretBox.js';
import { createSmtpMailer } from './webhooks/smtp.js';
import { createWebhookWorker, type WebhookWorker } from './webhooks/worker.js';

export interface App {
  config: Config;
  clock: Clock;
  meta: MetaStore;
  events: EventStore;
  ingestion: Ingestion;
  /** The daily roll-ups: which days each site has rolled up, and the job that rolls up more. */
  rollups: Rollups;
  jobs: BackgroundJobs;
  /** Imports of exports into sites' imported data, run one at a time in the background. */
  imports: ImportRunner;
  http: FastifyInstance;
  /** Seals webhook signing secrets in the store; the worker opens them to sign. */
  webhookSecrets: SecretBox;
  /** Delivers webhooks in the background; tests stop it and drive their own with `tick()`. */
  webhooks: WebhookWorker;
  /** Where the HTTP server listens, once `listen` has run. */
  url: string;
  listen(): Promise<string>;
  /** Stop accepting, finish in-flight requests, then close the stores. */
  close(): Promise<void>;
}

/** The composition root: opens both stores (migrating them) and wires the HTTP server. */
export interface AppOptions {
  clock?: Clock;
  /** Overrides for tests of back-pressure; production uses the defaults. */
  ingestion?: { maxPendingEvents?: number };
}

export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const clock = options.clock ?? systemClock;
  const log = pino({ level: config.logLevel });
  const meta = await openMetaStore(config.metadata);
  // Work that must run on one node at a time (docs/scaling.md, Leases), starting with the event store's migrations.
  const leases = createLeases({ db: meta.db, clock, onError: (error) => log.warn({ err: error }, 'could not renew a lease') });
  let events: EventStore;
  try {
    events = await openEventStore(config.clickhouse, clock.now(), config.query.connections, {
      migrationGuard: (work) => leases.runWhenFree('clickhouse-migrations', () => work()),
    });
  } catch (error) {
    await meta.close();
    throw error;
  }
  let ingestion: Ingestion;
  let rollups: Rollups;
  try {
    rollups = await openRollups({
      client: events.jobs,
      cluster: events.cluster,
      memoryLimitBytes: config.query.memoryLimitBytes,
      flushWrites: () => ingestion.buffer.flush(),
      onError: (error) => log.error({ err: error }, 'rolling up failed; retrying next round'),
      // A server may have other nodes beside this one: what they record is read again every few seconds.
      reloadEveryMs: events.kind === 'server' ? COVERAGE_RELOAD_MS : undefined,
    });
    ingestion = await createIngestion({ config, clock, meta: meta.db, events, log, noteWrite: rollups.noteWrite, ...options.ingestion });
  } catch (error) {
    await events.close();
    await meta.close();
    throw error;
  }
  const webhookSecrets = secretBoxFrom(config.secretKeyBase);
  const imports = createImportRunner({ db: meta.db, events, ingestion, clock, log, dataDir: config.dataDir, leases });
  const http = buildHttpServer({
    config,
    clock,
    log,
    meta,
    events,
    ingestion,
    rollups,
    imports,
    webhookSecrets,
    siteChanged: (siteId) => ingestion.sites.invalidate(siteId),
  });
  ingestion.start();
  const jobs = startBackgroundJobs({ meta: meta.db, events, rollups, clock, log, leases });
  const mailer = config.smtpUrl === null ? undefined : createSmtpMailer(config.smtpUrl);
  const webhooks = createWebhookWorker({
    db: meta.db,
    dialect: meta.dialect,
    clock,
    logger: log,
    allowPrivate: config.webhookAllowPrivate,
    secrets: webhookSecrets,
    mailer,
  });
  webhooks.start();
  let closing: Promise<void> | undefined;
  const app: App = {
    config,
    clock,
    meta,
    events,
    ingestion,
    rollups,
    jobs,
    imports,
    http,
    webhookSecrets,
    webhooks,
    url: '',
    async listen() {
      app.url = await http.listen({ port: config.port, host: config.host });
      const address = http.server.address();
      if (address && typeof address === 'object') app.url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
      return app.url;
    },
    close() {
      closing ??= (async () => {
        await http.close();
        await webhooks.stop();
        await jobs.stop();
        await imports.stop();
        await ingestion.close();
        rollups.stop();
        await events.close();
        await meta.close();
      })();
      return closing;
    },
  };
  return app;
}
