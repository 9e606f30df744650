import { Command, CommanderError } from 'commander';
import { systemClock } from '../clock.js';
import { ConfigError, loadConfig } from '../config/config.js';
import { AppError, Refusal } from '../errors.js';
import { type MetaStore, openMetaStore } from '../stores/meta/database.js';
import type { CommandContext } from './commandContext.js';
import { accountCommands } from './commands/accounts.js';
import { eventCommands } from './commands/events.js';
import { exportCommands } from './commands/export.js';
import { mcpCommands } from './commands/mcp.js';
import { reportCommands } from './commands/reports.js';
import { serveCommands } from './commands/serve.js';
import { createOutput } from './output.js';

/** Exit codes: 0 done, 2 a problem with what was asked (bad arguments, invalid values), 1 anything else. */
class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

function fail(json: boolean, code: number, message: string, errorCode: string): never {
  process.stderr.write(json ? `${JSON.stringify({ error: message, code: errorCode })}\n` : `svc: ${message}\n`);
  throw new Exit(code);
}

export function buildProgram(): Command {
  const program = new Command('svc')
    .description('Command-line tool of the analytics service. Every command takes --json.')
    .option('--json', 'print results as JSON')
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput({ writeErr: () => {} });

  const json = () => Boolean(program.opts().json);
  // Metadata commands open the store directly; SQLite in WAL mode lets them run beside the server.
  const run = async (action: (ctx: CommandContext) => Promise<void>, options = { meta: true }) => {
    let meta: MetaStore | undefined;
    try {
      const config = loadConfig();
      if (options.meta) meta = await openMetaStore(config.metadata);
      await action({ meta: meta as MetaStore, clock: systemClock, config, out: createOutput(json()) });
    } catch (error) {
      if (error instanceof Exit) throw error;
      if (error instanceof AppError) fail(json(), error.status < 500 ? 2 : 1, error.message, error.code);
      if (error instanceof Refusal) fail(json(), 2, error.message, error.code);
      if (error instanceof ConfigError) fail(json(), 2, error.message, error.code);
      fail(json(), 1, error instanceof Error ? error.message : String(error), 'failed');
    } finally {
      await meta?.close();
    }
  };
  accountCommands(program, run);
  exportCommands(program, run);
  reportCommands(program, run);
  eventCommands(program, (action) => run(({ out }) => action(out), { meta: false }));
  mcpCommands(program, (action) => run(action, { meta: false }));
  serveCommands(
    program,
    (action) => run(action, { meta: false }),
    (code) => {
      if (code !== 0) throw new Exit(code);
    },
  );
  program.commands.forEach(function inherit(command) {
    command
      .exitOverride()
      .configureOutput({ writeErr: () => {} })
      .option('--json', 'print results as JSON');
    command.commands.forEach(inherit);
  });
  return program;
}

export async function runCli(argv: string[]): Promise<number> {
  const program = buildProgram();
  const wantsJson = argv.includes('--json');
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof Exit) return error.code;
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0) return 0;
      if (error.code === 'commander.help') return 0;
      const message = error.message.replace(/^error: /, '');
      const sentence = message.charAt(0).toUpperCase() + message.slice(1) + (/[.!?]$/.test(message) ? '' : '.');
      try {
        fail(wantsJson, 2, sentence, 'invalid_arguments');
      } catch (exit) {
        return (exit as Exit).code;
      }
    }
    throw error;
  }
}
