import { createApp } from './app.js';
import { type Config, ConfigError, loadConfig } from './config/config.js';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const app = await createApp(config);
  const log = app.http.log;
  // A stray rejection is a bug to log, never a reason to drop every in-flight request.
  process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled rejection'));
  const url = await app.listen();
  log.info(`listening on ${url} (event store: ${app.events.kind}, metadata: ${app.meta.dialect}, data: ${config.dataDir})`);

  const shutdown = (signal: string) => {
    log.info(`${signal} received, shutting down`);
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error) => {
  process.stderr.write(`Start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
