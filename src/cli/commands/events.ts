import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { loadConfig } from '../../config/config.js';
import { AppError } from '../../errors.js';
import type { Output } from '../output.js';

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
        const base = (opts.url ?? loadConfig().baseUrl).replace(/\/+$/, '');
        let body: string;
        try {
          body = await readFile(opts.file, 'utf8');
        } catch {
          throw new AppError(400, 'unreadable_file', `Cannot read ${opts.file}.`);
        }
        let response: Response;
        try {
          response = await fetch(`${base}/api/v1/sites/${encodeURIComponent(opts.site)}/events/import`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' },
            body,
          });
        } catch {
          throw new AppError(503, 'server_unreachable', `No server answers at ${base}; start it with npm start or pass --url.`);
        }
        const result = (await response.json().catch(() => ({}))) as Record<string, unknown>;
        if (!response.ok) {
          throw new AppError(response.status, String(result.code ?? 'import_failed'), String(result.error ?? `The server answered ${response.status}.`));
        }
        const rejected = (result.rejected as unknown[] | undefined)?.length ?? 0;
        out.result(result, `Imported ${result.lines} lines into ${opts.site}: ${JSON.stringify(result.outcomes)}; ${rejected} rejected.`);
      }),
    );
}
