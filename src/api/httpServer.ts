import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import type { EventStore } from '../stores/clickhouse/eventStore.js';
import type { MetaStore } from '../stores/meta/database.js';
import { requireApiKey } from './authentication.js';
import { installErrorHandling } from './errorHandling.js';
import { healthRoutes } from './routes/health.js';
import { queryRoutes } from './routes/query.js';
import { statsV1Routes } from './routes/statsV1.js';
import { siteRoutes } from './routes/sites.js';

export interface HttpDeps {
  config: Config;
  clock: Clock;
  meta: MetaStore;
  events: EventStore;
  /** Call after any change to a site or its settings, so cached lookups (ingestion) refresh. */
  siteChanged(siteId: number): void;
}

/** The one HTTP server: health, and the authenticated API under /api/v1 and /api/v2. */
export function buildHttpServer(deps: HttpDeps): FastifyInstance {
  const app = Fastify({
    logger: { level: deps.config.logLevel },
    // One log line per request would dominate the ingestion hot path; failures are logged.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    // Forwarded headers are interpreted by our own address resolution, only for trusted proxies.
    trustProxy: false,
    return503OnClosing: true,
  });
  installErrorHandling(app);

  healthRoutes(app, [
    { name: 'metadata store', ping: () => deps.meta.ping() },
    { name: 'event store', ping: () => deps.events.ping() },
  ]);

  app.register(async (api) => {
    requireApiKey(api, { db: deps.meta.db, clock: deps.clock });
    siteRoutes(api, { db: deps.meta.db });
    queryRoutes(api, deps);
    statsV1Routes(api, deps);
  });
  return app;
}
