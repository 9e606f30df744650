import type { FastifyInstance } from 'fastify';
import { buildHttpServer } from './api/httpServer.js';
import { type Clock, systemClock } from './clock.js';
import type { Config } from './config/config.js';
import { type EventStore, openEventStore } from './stores/clickhouse/eventStore.js';
import { type MetaStore, openMetaStore } from './stores/meta/database.js';
import { createSmtpMailer } from './webhooks/smtp.js';
import { type WebhookWorker, createWebhookWorker } from './webhooks/worker.js';

export interface App {
  config: Config;
  clock: Clock;
  meta: MetaStore;
  events: EventStore;
  http: FastifyInstance;
  /** Delivers webhooks in the background; tests stop it and drive their own with `tick()`. */
  webhooks: WebhookWorker;
  /** Where the HTTP server listens, once `listen` has run. */
  url: string;
  listen(): Promise<string>;
  /** Stop accepting, finish in-flight requests, then close the stores. */
  close(): Promise<void>;
}

/** The composition root: opens both stores (migrating them) and wires the HTTP server. */
export async function createApp(config: Config, options: { clock?: Clock } = {}): Promise<App> {
  const clock = options.clock ?? systemClock;
  const meta = await openMetaStore(config.metadata);
  let events: EventStore;
  try {
    events = await openEventStore(config.clickhouse, clock.now());
  } catch (error) {
    await meta.close();
    throw error;
  }
  const http = buildHttpServer({ config, clock, meta, events, siteChanged: () => {} });
  const mailer = config.smtpUrl === null ? undefined : createSmtpMailer(config.smtpUrl);
  const webhooks = createWebhookWorker({ db: meta.db, dialect: meta.dialect, clock, logger: http.log, allowPrivate: config.webhookAllowPrivate, mailer });
  webhooks.start();
  let closing: Promise<void> | undefined;
  const app: App = {
    config,
    clock,
    meta,
    events,
    http,
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
        await events.close();
        await meta.close();
      })();
      return closing;
    },
  };
  return app;
}
