import { createNode } from './app.js';
import type { Config } from './config/config.js';
import { assertMayStart, describeRoles, type NodeRole } from './config/roles.js';

/**
 * Runs one node of the service until SIGTERM or SIGINT (`npm start`: every role; `svc serve
 * --role …`: some). Refuses, throwing a ConfigError with one sentence, a node that would run
 * beside others without what they share (src/config/roles.ts). Resolves with the exit code once
 * the node has shut down.
 */
export async function serveUntilStopped(config: Config, roles: readonly NodeRole[]): Promise<number> {
  assertMayStart(config, roles);
  const node = await createNode(config, { roles });
  const log = node.http.log;
  // A stray rejection is a bug to log, never a reason to drop every in-flight request.
  process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled rejection'));
  const url = await node.listen();
  log.info(`listening on ${url} (roles: ${describeRoles(roles)}, event store: ${node.events.kind}, metadata: ${node.meta.dialect}, data: ${config.dataDir})`);
  return new Promise<number>((resolve) => {
    const shutdown = (signal: string) => {
      log.info(`${signal} received, shutting down`);
      const force = setTimeout(() => process.exit(1), 30_000);
      force.unref();
      node.close().then(
        () => resolve(0),
        (error) => {
          log.error({ err: error }, 'shutdown failed');
          resolve(1);
        },
      );
    };
    process.once('SIGTERM', () => shutdown('SIGTERM'));
    process.once('SIGINT', () => shutdown('SIGINT'));
  });
}
