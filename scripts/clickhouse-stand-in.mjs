#!/usr/bin/env node
// TEST-ONLY: runs the ClickHouse HTTP stand-in (test/support/clickhouseStandIn.ts; its header says
// what it cannot show). Never a product mode.
//   npm run clickhouse:stand-in -- --port 8123 --data /tmp/stand-in [--host 127.0.0.1] [--memory-mb 1024]
// Prints `listening on http://HOST:PORT` when ready; stops on SIGTERM or SIGINT (Ctrl-C). npm does
// not pass a SIGTERM it receives on to the script, so a test signals this node process itself.
// The stand-in is TypeScript and no TypeScript runner is installed, so esbuild (a devDependency)
// bundles it first, beside node_modules so that chdb and @clickhouse/client resolve from there.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8123' },
    host: { type: 'string', default: '127.0.0.1' },
    data: { type: 'string' },
    'memory-mb': { type: 'string', default: '1024' },
  },
});
const port = Number(values.port);
const memoryMb = Number(values['memory-mb']);
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, got "${values.port}"`);
if (!Number.isInteger(memoryMb) || memoryMb < 128)
  throw new Error(`--memory-mb must be a whole number of megabytes, at least 128, got "${values['memory-mb']}"`);

const root = fileURLToPath(new URL('..', import.meta.url));
const cache = join(root, 'node_modules', '.cache', 'clickhouse-stand-in');
mkdirSync(cache, { recursive: true });
// One file per process: two stand-ins starting together must not overwrite each other's build.
const outfile = join(cache, `stand-in-${process.pid}.mjs`);
await build({
  entryPoints: [join(root, 'test/support/clickhouseStandIn.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
const { startClickhouseStandIn } = await import(pathToFileURL(outfile).href);
rmSync(outfile, { force: true });

// Without --data the engine's files live in a temporary directory removed on stop.
const dataDir = values.data ?? mkdtempSync(join(tmpdir(), 'clickhouse-stand-in-'));
mkdirSync(dataDir, { recursive: true });
const standIn = await startClickhouseStandIn({ port, host: values.host, dataDir, memoryLimitBytes: memoryMb * 2 ** 20 });
console.log(`listening on ${standIn.url}`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await standIn.close();
  if (values.data === undefined) rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
