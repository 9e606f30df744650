import type { Clock } from '../clock.js';
import type { Mailer } from '../mail/mailer.js';
import type { QueryEngineDeps } from '../query/run/engine.js';
import type { MetaDb } from '../stores/meta/database.js';
import type { UnsubscribeTokens } from './unsubscribe.js';

export interface EmailLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** What the email reports and traffic notices run with, on a worker or behind `./bin/svc reports send`. */
export interface EmailDeps {
  db: MetaDb;
  /** Every figure comes from the query engine (src/query/run/engine.ts). */
  engine: QueryEngineDeps;
  /** Undefined without SMTP_URL: nothing is sent, and nothing is recorded as sent. */
  mailer: Mailer | undefined;
  clock: Clock;
  /** BASE_URL, for the dashboard and unsubscribe links. */
  baseUrl: string;
  tokens: UnsubscribeTokens;
  log: EmailLogger;
}
