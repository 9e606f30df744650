import { runCli } from './program.js';

runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`svc: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
