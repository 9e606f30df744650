import type { Command } from 'commander';
import { loadConfig } from '../../config/config.js';
import { AppError } from '../../errors.js';
import { runStdioBridge } from '../../mcp/stdioBridge.js';

/** `svc mcp`: the assistant-tool server on stdin/stdout, for clients that start their servers as processes. */
export function mcpCommands(program: Command, run: (action: () => Promise<void>) => Promise<void>): void {
  program
    .command('mcp')
    .description('Serve the assistant tools (Model Context Protocol) over stdio, forwarding each call to the running server')
    .option('--url <url>', 'server address (default: BASE_URL)')
    .option('--key <key>', 'API key whose scopes the tools get (default: $SVC_API_KEY)')
    .action((opts: { url?: string; key?: string }) =>
      run(async () => {
        const key = opts.key ?? process.env.SVC_API_KEY;
        if (!key) throw new AppError(400, 'missing_key', 'An API key is needed: pass --key or set SVC_API_KEY.');
        // Said before a client connects, rather than as every tool call's failure.
        if (opts.url !== undefined && !/^https?:$/.test(URL.parse(opts.url)?.protocol ?? '')) {
          throw new AppError(400, 'invalid_url', `--url "${opts.url}" is not a server address such as http://localhost:8000.`);
        }
        await runStdioBridge({ baseUrl: opts.url ?? loadConfig().baseUrl, key });
      }),
    );
}
