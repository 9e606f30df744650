import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import type { ImportRunner } from '../imports/importRunner.js';
import type { Ingestion } from '../ingest/ingestion.js';
import { mcpRoutes } from '../mcp/httpRoute.js';
import type { Rollups } from '../rollups/rollups.js';
import type { EventStore } from '../stores/clickhouse/eventStore.js';
import type { MetaStore } from '../stores/meta/database.js';
import { webAppRoutes } from '../web/webApp.js';
import type { SecretBox } from '../webhooks/secretBox.js';
import { requireApiKey } from './authentication.js';
import { answerClientError, answerUnroutable, installErrorHandling } from './errorHandling.js';
import { collectRoutes } from './routes/collect.js';
import { importRoutes } from './routes/eventImport.js';
import { exportRoutes } from './routes/export.js';
import { healthRoutes } from './routes/health.js';
import { importsRoutes } from './routes/imports.js';
import { ingestionHealthRoutes } from './routes/ingestionHealth.js';
import { acceptanceRoutes, managementRoutes } from './routes/management/index.js';
import { queryEngineDeps, queryRoutes } from './routes/query.js';
import { statsV1Routes } from './routes/statsV1.js';
import { trackerScriptRoutes } from './routes/trackerScript.js';
import { webhookRoutes } from './routes/webhooks.js';
import { refuseNulCharacters } from './textInput.js';

export interface HttpDeps {
  config: Config;
  clock: Clock;
  log: FastifyBaseLogger;
  meta: MetaStore;
  events: EventStore;
  ingestion: Ingestion;
  rollups: Rollups;
  imports: ImportRunner;
  webhookSecrets: SecretBox;
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

/** The one HTTP server: health, collection, the authenticated API under /api/v1 and /api/v2, and the web app. */
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
  // One engine for every statistics answer: v2, v1, the funnel report and the web app.
  const engine = queryEngineDeps(deps);
  const webApp = webAppRoutes(app, {
    db: deps.meta.db,
    clock: deps.clock,
    secureCookies: deps.config.baseUrl.startsWith('https:'),
    engine,
    events: deps.events,
    secret: deps.config.secretKeyBase,
    dataDir: deps.config.dataDir,
  });
  installErrorHandling(app, webApp);
  acceptEmptyJson(app);

  healthRoutes(app, [
    { name: 'metadata store', ping: () => deps.meta.ping() },
    { name: 'event store', ping: () => deps.events.ping() },
  ]);

  collectRoutes(app, { pipeline: deps.ingestion.live, clock: deps.clock });
  trackerScriptRoutes(app);
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
      siteChanged: deps.siteChanged,
    });
    importRoutes(api, { db: deps.meta.db, clock: deps.clock, ingestion: deps.ingestion, dataDir: deps.config.dataDir, imports: deps.imports });
    ingestionHealthRoutes(api, { db: deps.meta.db, clock: deps.clock, events: deps.events, ingestion: deps.ingestion });
    importsRoutes(api, { db: deps.meta.db, clock: deps.clock, dataDir: deps.config.dataDir, imports: deps.imports });
    exportRoutes(api, { db: deps.meta.db, clock: deps.clock, events: deps.events });
    webhookRoutes(api, { db: deps.meta.db, clock: deps.clock, allowPrivate: deps.config.webhookAllowPrivate, secrets: deps.webhookSecrets });
    queryRoutes(api, engine);
    statsV1Routes(api, engine);
    mcpRoutes(api, { db: deps.meta.db, clock: deps.clock, engine, log: deps.log, siteChanged: deps.siteChanged });
  });
  return app;
}
