import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { type SecretBox, secretBoxFrom } from './accounts/secretBox.js';
import { buildHttpServer } from './api/httpServer.js';
import { type Probe, STATE_STORE } from './api/routes/health.js';
import { type BackgroundJobs, startBackgroundJobs } from './backgroundJobs.js';
import { type Clock, systemClock } from './clock.js';
import type { Config } from './config/config.js';
import { allRoles, assertMayStart, hasAllRoles, type NodeRole } from './config/roles.js';
import { createExportJobs, type ExportJobs } from './export/exportJobs.js';
import { createImportHandOff } from './imports/importHandOff.js';
import { createImportRunner, type ImportRunner } from './imports/importRunner.js';
import { createIngestion, type Ingestion } from './ingest/ingestion.js';
import { createSmtpMailer } from './mail/smtpMailer.js';
import { queryEngineDeps } from './queryEngine.js';
import { unsubscribeTokens } from './reports/unsubscribe.js';
import { COVERAGE_RELOAD_MS, openRollups, type Rollups } from './rollups/rollups.js';
import { sharedIngestionState } from './state/ingestionState.js';
import { Invalidation } from './state/invalidation.js';
import { SharedState } from './state/redis.js';
import { signInLimiterFor } from './state/signInLimiter.js';
import { type EventStore, openEventStore } from './stores/clickhouse/eventStore.js';
import { type MetaStore, openMetaStore } from './stores/meta/database.js';
import { createLeases, type Leases } from './stores/meta/leases.js';
import { createWebhookWorker, type WebhookWorker } from './webhooks/worker.js';

/** One process of the service with the given roles (src/config/roles.ts); parts of other roles are null. */
export interface ServiceNode {
  config: Config;
  clock: Clock;
  roles: readonly NodeRole[];
  meta: MetaStore;
  events: EventStore;
  /** Collection: on ingest nodes, and on workers, which replay NDJSON imports through it. */
  ingestion: Ingestion | null;
  /** The daily roll-ups: which days each site has rolled up (every node reads it), and the job that rolls up more (workers). */
  rollups: Rollups;
  /** Roll-ups, retention, purges: workers only. */
  jobs: BackgroundJobs | null;
  /** Imports of exports into sites' imported data: run one at a time by a worker; other nodes hand them over. */
  imports: ImportRunner;
  /** Prepared exports: recorded by web nodes, written by workers (null on a node with neither role). */
  exports: ExportJobs | null;
  http: FastifyInstance;
  /** Seals webhook signing secrets in the store; the worker opens them to sign. */
  webhookSecrets: SecretBox;
  /** Delivers webhooks in the background (workers only); tests stop it and drive their own with `tick()`. */
  webhooks: WebhookWorker | null;
  /** The connection to STATE_URL; null when it is not set. */
  state: SharedState | null;
  /** Where the HTTP server listens, once `listen` has run. */
  url: string;
  listen(): Promise<string>;
  /** Stop accepting, finish in-flight requests, then close the stores. */
  close(): Promise<void>;
}

/** The whole service in one process (every role): what `npm start` runs and the tests use. */
export interface App extends ServiceNode {
  ingestion: Ingestion;
  jobs: BackgroundJobs;
  webhooks: WebhookWorker;
}

/** The composition root: opens both stores (migrating them) and wires the HTTP server. */
export interface AppOptions {
  clock?: Clock;
  /** Overrides for tests of back-pressure; production uses the defaults. */
  ingestion?: { maxPendingEvents?: number };
}

export interface NodeOptions extends AppOptions {
  /** Default: every role. */
  roles?: readonly NodeRole[];
  /**
   * Tests only: a node with some roles on embedded stores and a generated secret, which the
   * service refuses (src/config/roles.ts multiNodeRefusal), to test routing in one process.
   */
  allowSingleHostStoresForTests?: boolean;
}

/** Every role in one process, as before roles existed. */
export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const node = await createNode(config, { ...options, roles: allRoles() });
  if (!isWholeApp(node)) throw new Error('A node with every role has every part.');
  return node;
}

function isWholeApp(node: ServiceNode): node is App {
  return node.ingestion !== null && node.jobs !== null && node.webhooks !== null;
}

/**
 * The composition root: opens both stores (migrating them), then builds the parts of the node's
 * roles only (src/config/roles.ts) and wires the HTTP server with their routes.
 */
export async function createNode(config: Config, options: NodeOptions = {}): Promise<ServiceNode> {
  const roles = options.roles ?? allRoles();
  if (!hasAllRoles(roles) && !options.allowSingleHostStoresForTests) assertMayStart(config, roles);
  const has = (role: NodeRole) => roles.includes(role);
  const clock = options.clock ?? systemClock;
  const log = pino({ level: config.logLevel });
  const { meta, leases, events } = await openStores(config, clock, log);
  // The one connection to STATE_URL (docs/scaling.md); /api/health pings it. Opened before ingestion,
  // which keeps its rate limits and idempotency keys there; a Redis that is down delays the start
  // by at most two seconds (ingestion then falls back to its own state).
  const state = config.stateUrl === null ? null : new SharedState(config.stateUrl, log);
  await state?.ready();
  let parts: { rollups: Rollups; ingestion: Ingestion | null };
  try {
    parts = await openEventWork({ config, clock, log, meta, events, state, collects: has('ingest') || has('worker'), ingestion: options.ingestion });
  } catch (error) {
    await events.close();
    await meta.close();
    await state?.close();
    throw error;
  }
  const { rollups, ingestion } = parts;
  // A change made through this node reaches the other nodes' caches (src/state/invalidation.ts).
  const invalidation = state === null ? null : Invalidation.start(state, { sites: ingestion?.sites, rollups }, log);
  const webhookSecrets = secretBoxFrom(config.secretKeyBase);
  const worker = has('worker') && ingestion !== null ? startWorker({ config, clock, log, meta, events, rollups, ingestion, webhookSecrets, leases }) : null;
  const imports = worker?.imports ?? createImportHandOff({ db: meta.db, events, log, filesDir: config.filesDir });
  // Web nodes record prepared exports, workers write them, as with imports (docs/scaling.md, Roles).
  const exports =
    has('web') || has('worker')
      ? createExportJobs({ db: meta.db, events, clock, dataDir: config.filesDir, leasePeriodMs: config.leasePeriodMs, writes: has('worker') })
      : null;
  const http = buildHttpServer({
    config,
    clock,
    log,
    roles,
    meta,
    events,
    ingestion,
    buildEngine: () => queryEngineDeps({ config, clock, meta, events, rollups }),
    imports,
    exports,
    webhookSecrets,
    mailer: config.smtpUrl === null ? null : createSmtpMailer(config.smtpUrl),
    state: stateProbe(state),
    signInLimiter: signInLimiterFor(state),
    siteChanged: (siteId) => {
      ingestion?.sites.invalidate(siteId);
      void invalidation?.siteChanged(siteId);
    },
  });
  ingestion?.start();
  let closing: Promise<void> | undefined;
  const node: ServiceNode = {
    config,
    clock,
    roles,
    meta,
    events,
    ingestion,
    rollups,
    jobs: worker?.jobs ?? null,
    imports,
    exports,
    http,
    webhookSecrets,
    webhooks: worker?.webhooks ?? null,
    state,
    url: '',
    async listen() {
      node.url = await http.listen({ port: config.port, host: config.host });
      const address = http.server.address();
      if (address && typeof address === 'object') node.url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
      return node.url;
    },
    close() {
      closing ??= (async () => {
        await http.close();
        exports?.stop();
        // First, so a round catching up ends after its current chunk rather than holding the close.
        rollups.stop();
        await worker?.stop();
        if (!worker) await imports.stop();
        await ingestion?.close();
        await events.close();
        await meta.close();
        await state?.close();
      })();
      return closing;
    },
  };
  return node;
}

/** Both stores, the event store migrated under a lease so nodes starting together run its migrations once (docs/scaling.md, Leases). */
async function openStores(config: Config, clock: Clock, log: FastifyBaseLogger) {
  const meta = await openMetaStore(config.metadata);
  const leases = createLeases({ db: meta.db, clock, periodMs: config.leasePeriodMs, onError: (error) => log.warn({ err: error }, 'could not renew a lease') });
  try {
    const events = await openEventStore(config.clickhouse, clock.now(), config.query.connections, {
      migrationGuard: (work) => leases.runWhenFree('clickhouse-migrations', () => work()),
    });
    return { meta, leases, events };
  } catch (error) {
    await meta.close();
    throw error;
  }
}

/**
 * Roll-ups (every node reads their coverage) and, on ingest and worker nodes, ingestion: ingest
 * nodes collect, workers replay NDJSON imports through the same pipeline; query and web nodes only read.
 */
async function openEventWork(deps: {
  config: Config;
  clock: Clock;
  log: FastifyBaseLogger;
  meta: MetaStore;
  events: EventStore;
  state: SharedState | null;
  collects: boolean;
  ingestion: NodeOptions['ingestion'];
}): Promise<{ rollups: Rollups; ingestion: Ingestion | null }> {
  const { config, clock, log, events } = deps;
  let ingestion: Ingestion | null = null;
  const rollups = await openRollups({
    client: events.jobs,
    cluster: events.cluster,
    memoryLimitBytes: config.query.memoryLimitBytes,
    flushWrites: () => ingestion?.buffer.flush() ?? Promise.resolve(),
    writesFailing: () => ingestion?.buffer.failing ?? false,
    daySoFarEvents: config.query.daySoFarEvents,
    onError: (error) => log.error({ err: error }, 'rolling up failed; retrying next round'),
    // A server may have other nodes beside this one: what they record is read again every few seconds.
    reloadEveryMs: events.kind === 'server' ? COVERAGE_RELOAD_MS : undefined,
  });
  if (deps.collects) {
    ingestion = await createIngestion({
      config,
      clock,
      meta: deps.meta.db,
      events,
      log,
      noteWrite: rollups.noteWrite,
      state: deps.state && sharedIngestionState(deps.state),
      ...deps.ingestion,
    });
  }
  return { rollups, ingestion };
}

/**
 * The worker role's background work: roll-ups, retention and purges, webhook deliveries, and
 * imports (with other nodes beside it, the imports their routes left pending too).
 */
function startWorker(deps: {
  config: Config;
  clock: Clock;
  log: FastifyBaseLogger;
  meta: MetaStore;
  events: EventStore;
  rollups: Rollups;
  ingestion: Ingestion;
  webhookSecrets: SecretBox;
  leases: Leases;
}) {
  const { config, clock, log, meta, events } = deps;
  const imports = createImportRunner({ db: meta.db, events, ingestion: deps.ingestion, clock, log, dataDir: config.filesDir, leases: deps.leases });
  const mailer = config.smtpUrl === null ? undefined : createSmtpMailer(config.smtpUrl);
  const emails = {
    db: meta.db,
    engine: queryEngineDeps({ config, clock, meta, events, rollups: deps.rollups }),
    mailer,
    clock,
    baseUrl: config.baseUrl,
    tokens: unsubscribeTokens(config.secretKeyBase),
    log,
  };
  const jobs = startBackgroundJobs({ meta: meta.db, events, rollups: deps.rollups, clock, log, leases: deps.leases, emails });
  const webhooks = createWebhookWorker({
    db: meta.db,
    dialect: meta.dialect,
    clock,
    logger: log,
    allowPrivate: config.webhookAllowPrivate,
    secrets: deps.webhookSecrets,
    mailer,
  });
  webhooks.start();
  return {
    imports,
    jobs,
    webhooks,
    async stop() {
      await webhooks.stop();
      await jobs.stop();
      await imports.stop();
    },
  };
}

/** The STATE_URL line of /api/health: a PING on the node's shared-state connection. */
function stateProbe(state: SharedState | null): Probe | null {
  if (state === null) return null;
  return {
    name: STATE_STORE,
    ping: async () => {
      await state.client.ping();
    },
  };
}
