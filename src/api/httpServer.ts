import cookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { type SecretBox, secretBoxFrom } from '../accounts/secretBox.js';
import type { SignInLimiter } from '../accounts/signInLimiter.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { NODE_ROLES, type NodeRole } from '../config/roles.js';
import type { ExportJobs } from '../export/exportJobs.js';
import type { ImportRunner } from '../imports/importRunner.js';
import type { Ingestion } from '../ingest/ingestion.js';
import type { Mailer } from '../mail/mailer.js';
import { mcpRoutes } from '../mcp/httpRoute.js';
import type { QueryEngineDeps } from '../query/run/engine.js';
import type { EmailDeps } from '../reports/emailDeps.js';
import { unsubscribeTokens } from '../reports/unsubscribe.js';
import type { EventStore } from '../stores/clickhouse/eventStore.js';
import type { MetaStore } from '../stores/meta/database.js';
import { webAppRoutes } from '../web/webApp.js';
import { requireApiKey } from './authentication.js';
import { answerClientError, answerUnroutable, installErrorHandling } from './errorHandling.js';
import { collectRoutes } from './routes/collect.js';
import { importRoutes } from './routes/eventImport.js';
import { exportRoutes } from './routes/export.js';
import { healthRoutes, type Probe } from './routes/health.js';
import { importsRoutes } from './routes/imports.js';
import { ingestionHealthRoutes } from './routes/ingestionHealth.js';
import { acceptanceRoutes, managementRoutes } from './routes/management/index.js';
import { queryRoutes } from './routes/query.js';
import { statsV1Routes } from './routes/statsV1.js';
import { trackerScriptRoutes } from './routes/trackerScript.js';
import { webhookRoutes } from './routes/webhooks.js';
import { refuseNulCharacters } from './textInput.js';

export interface HttpDeps {
  config: Config;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The node's roles: only their routes are registered (src/config/roles.ts). */
  roles: readonly NodeRole[];
  meta: MetaStore;
  events: EventStore;
  /** Collection; every ingest node has it (a query or web node has none). */
  ingestion: Ingestion | null;
  /** Builds the query engine (src/queryEngine.ts); called once, by the first role whose routes need it. */
  buildEngine(): QueryEngineDeps;
  imports: ImportRunner;
  /** Prepared exports (src/export/exportJobs.ts): the web routes record them; null on a node with neither web nor worker. */
  exports: ExportJobs | null;
  webhookSecrets: SecretBox;
  /** Sends account and invitation emails; null without SMTP_URL (every screen then says what to do instead). */
  mailer: Mailer | null;
  /** The STATE_URL store /api/health pings; null when STATE_URL is not set. */
  state: Probe | null;
  /** The web app's sign-in limiter, shared by every node with STATE_URL (src/state/signInLimiter.ts). */
  signInLimiter: SignInLimiter;
  /** Call after any change to a site or its settings, so cached lookups (ingestion) refresh. */
  siteChanged(siteId: number): void;
}

/**
 * Routes that take no body (delete, rotate, redeliver…) are often called with a JSON content type
 * and nothing after it; an empty body is no body, not an error. Malformed JSON is still refused.
 */
function acceptEmptyJson(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : parseJson(request, body.toString(), done),
  );
}

/** What the routes of several roles share, built once per server and only when a role needs it. */
interface Shared {
  /** One engine for every statistics answer: v2, v1, the funnel report and the web app. */
  engine(): QueryEngineDeps;
}

/**
 * The routes of each role. A node registers those of its roles only, so a request for another
 * role's route gets the usual 404 JSON. /api/health belongs to every node (buildHttpServer).
 */
const ROLE_ROUTES: Record<NodeRole, (app: FastifyInstance, deps: HttpDeps, shared: Shared) => void> = {
  ingest(app, deps) {
    const ingestion = deps.ingestion;
    if (ingestion === null) throw new Error('An ingest node needs its ingestion.');
    collectRoutes(app, { pipeline: ingestion.live, clock: deps.clock });
    app.register(async (api) => {
      requireApiKey(api, { db: deps.meta.db, clock: deps.clock });
      api.addHook('preValidation', refuseNulCharacters);
      importRoutes(api, { db: deps.meta.db, clock: deps.clock, ingestion, dataDir: deps.config.filesDir, imports: deps.imports });
    });
  },
  query(app, deps, shared) {
    const engine = shared.engine();
    // The web app calls the API with its session cookie; a node with the web role parses cookies already.
    if (!deps.roles.includes('web')) app.register(cookie);
    // Invitation and transfer links are opened by people who may have no account, hence no key.
    app.register(async (scope) => {
      scope.addHook('preValidation', refuseNulCharacters);
      acceptanceRoutes(scope, { db: deps.meta.db, clock: deps.clock });
    });
    app.register(async (api) => {
      requireApiKey(api, { db: deps.meta.db, clock: deps.clock });
      api.addHook('preValidation', refuseNulCharacters);
      managementRoutes(api, {
        db: deps.meta.db,
        clock: deps.clock,
        engine,
        baseUrl: deps.config.baseUrl,
        mailer: deps.mailer,
        siteChanged: deps.siteChanged,
      });
      // Counts this node still holds belong in the answer; a node without collection holds none.
      const flushWrites = () => deps.ingestion?.buffer.flush() ?? Promise.resolve();
      ingestionHealthRoutes(api, { db: deps.meta.db, clock: deps.clock, events: deps.events, flushWrites });
      importsRoutes(api, { db: deps.meta.db, clock: deps.clock, dataDir: deps.config.filesDir, imports: deps.imports });
      exportRoutes(api, { db: deps.meta.db, clock: deps.clock, events: deps.events });
      webhookRoutes(api, { db: deps.meta.db, clock: deps.clock, allowPrivate: deps.config.webhookAllowPrivate, secrets: deps.webhookSecrets });
      queryRoutes(api, engine);
      statsV1Routes(api, engine);
      mcpRoutes(api, { db: deps.meta.db, clock: deps.clock, engine, log: deps.log, siteChanged: deps.siteChanged });
    });
  },
  // The web app is registered first (its pages answer unknown GETs), in buildHttpServer.
  web(app) {
    trackerScriptRoutes(app);
  },
  // The worker serves nothing but /api/health: its work is in the background (src/app.ts).
  worker() {},
};

/** The one HTTP server: health, then the routes of the node's roles (all of them by default). */
export function buildHttpServer(deps: HttpDeps): FastifyInstance {
  const app = Fastify({
    loggerInstance: deps.log,
    // One log line per request would dominate the ingestion hot path; failures are logged.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    // Forwarded headers are interpreted by our own address resolution, only for trusted proxies.
    trustProxy: false,
    return503OnClosing: true,
    frameworkErrors: answerUnroutable,
    clientErrorHandler: answerClientError,
  });
  let engine: QueryEngineDeps | undefined;
  const shared: Shared = { engine: () => (engine ??= deps.buildEngine()) };
  const webApp = deps.roles.includes('web')
    ? webAppRoutes(app, {
        db: deps.meta.db,
        clock: deps.clock,
        secureCookies: deps.config.baseUrl.startsWith('https:'),
        signInLimiter: deps.signInLimiter,
        engine: shared.engine(),
        events: deps.events,
        secret: deps.config.secretKeyBase,
        exports: requireExports(deps.exports),
        emails: emailDeps(deps, shared.engine()),
        mailer: deps.mailer,
        baseUrl: deps.config.baseUrl,
        twoFactorSecrets: secretBoxFrom(deps.config.secretKeyBase, 'twoFactor'),
      })
    : undefined;
  installErrorHandling(app, webApp);
  acceptEmptyJson(app);

  healthRoutes(app, {
    roles: deps.roles,
    probes: [
      { name: 'metadata store', ping: () => deps.meta.ping() },
      { name: 'event store', ping: () => deps.events.ping() },
    ],
    state: deps.state,
  });
  for (const role of NODE_ROLES) if (deps.roles.includes(role)) ROLE_ROUTES[role](app, deps, shared);
  return app;
}

/** What the web app's email settings, unsubscribe page and `svc reports send` route run with. */
function emailDeps(deps: HttpDeps, engine: QueryEngineDeps): EmailDeps {
  const { config } = deps;
  return {
    db: deps.meta.db,
    engine,
    mailer: deps.mailer ?? undefined,
    clock: deps.clock,
    baseUrl: config.baseUrl,
    tokens: unsubscribeTokens(config.secretKeyBase),
    log: deps.log,
  };
}

function requireExports(exports: ExportJobs | null): ExportJobs {
  if (exports === null) throw new Error('A node with the web role records prepared exports: give it its ExportJobs (src/app.ts).');
  return exports;
}
