import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { eventImportOutcome } from '../../contracts/imports.js';
import { AppError } from '../../errors.js';
import type { Output } from '../output.js';
import { callServer, refusal, serverAddress } from '../server.js';

/**
 * Commands that touch events go through the running server's HTTP API: only the server process
 * may open the embedded event store.
 */
export function eventCommands(program: Command, run: (action: (out: Output) => Promise<void>) => Promise<void>): void {
  const events = program.command('events').description('Work with raw events (through the running server)');
  events
    .command('import')
    .description('Import raw events (NDJSON: timestamp, ip, user_agent, headers?, and event fields) into a site')
    .requiredOption('--site <domain>', 'the site to import into')
    .requiredOption('--file <path>', 'NDJSON file, one event per line')
    .option('--url <url>', 'server address (default: BASE_URL)')
    .option('--key <key>', 'API key with sites:provision (default: $SVC_API_KEY)')
    .action((opts: { site: string; file: string; url?: string; key?: string }) =>
      run(async (out) => {
        const key = opts.key ?? process.env.SVC_API_KEY;
        if (!key) throw new AppError(400, 'missing_key', 'An API key is needed: pass --key or set SVC_API_KEY.');
        const base = serverAddress(opts.url);
        let body: string;
        try {
          body = await readFile(opts.file, 'utf8');
        } catch {
          throw new AppError(400, 'unreadable_file', `Cannot read ${opts.file}.`);
        }
        const response = await callServer(base, `/api/v1/sites/${encodeURIComponent(opts.site)}/events/import`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' },
          body,
        });
        if (!response.ok) throw await refusal(response, 'import_failed');
        const answer: unknown = await response.json().catch(() => null);
        const outcome = eventImportOutcome.safeParse(answer);
        if (!outcome.success) throw new AppError(502, 'unexpected_answer', `The server's answer is not an import's outcome (${base}).`);
        const { lines, outcomes, rejected } = outcome.data;
        // The answer is printed as it came (its keys in the server's order); it is known to be an outcome.
        out.result(answer, `Imported ${lines} lines into ${opts.site}: ${JSON.stringify(outcomes)}; ${rejected.length} rejected.`);
      }),
    );
}
