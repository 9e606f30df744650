import type { FastifyBaseLogger } from 'fastify';
import type { EventStore } from '../stores/clickhouse/eventStore.js';
import type { MetaDb } from '../stores/meta/database.js';
import { getImport } from '../stores/meta/imports.js';
import { deleteImportRows, type ImportRunner, markUploadWhole } from './importRunner.js';

const POLL_MS = 1_000;

/**
 * The import runner of a node without the worker role (docs/scaling.md): an import the routes
 * create stays pending in the metadata store for a worker to run, and `enqueue` resolves once the
 * worker has finished it (either way), read from its record, or when this node stops.
 */
export function createImportHandOff(deps: { db: MetaDb; events: EventStore; log: FastifyBaseLogger; filesDir: string; pollMs?: number }): ImportRunner {
  const pollMs = deps.pollMs ?? POLL_MS;
  const waiting = new Set<() => void>();
  let stopped = false;
  const finished = async (importId: number) => {
    const record = await getImport(deps.db, importId);
    return !record || (record.status !== 'pending' && record.status !== 'running');
  };
  return {
    enqueue(importId) {
      // The routes enqueue an import once its upload is whole: a worker may take it at once.
      markUploadWhole(deps.filesDir, importId);
      return new Promise<void>((resolve) => {
        const done = () => {
          waiting.delete(done);
          resolve();
        };
        waiting.add(done);
        const check = () => {
          if (stopped) return done();
          finished(importId).then(
            (yes) => (yes ? done() : setTimeout(check, pollMs).unref()),
            (error) => {
              deps.log.error({ err: error, importId }, 'could not follow an import');
              setTimeout(check, pollMs).unref();
            },
          );
        };
        setTimeout(check, pollMs).unref();
      });
    },
    deleteRows: (siteId, importId, range) => deleteImportRows(deps.events, siteId, importId, range),
    async idle() {},
    async stop() {
      stopped = true;
      for (const done of [...waiting]) done();
    },
  };
}
