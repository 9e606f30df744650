import { ConfigError, loadConfig } from './config/config.js';
import { allRoles } from './config/roles.js';
import { serveUntilStopped } from './serve.js';

/** `npm start`: every role in this process (`./bin/svc serve --role …` chooses roles; docs/scaling.md). */
async function main(): Promise<number> {
  try {
    return await serveUntilStopped(loadConfig(), allRoles());
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`Configuration error: ${error.message}\n`);
    return 1;
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`Start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
