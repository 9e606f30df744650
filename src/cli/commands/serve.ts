import type { Command } from 'commander';
import { loadConfig } from '../../config/config.js';
import { ALL_ROLES_WORD, assertMayStart, NODE_ROLE_PARTS, NODE_ROLES, parseRoles } from '../../config/roles.js';

/**
 * `svc serve [--role ingest,query,web,worker]`: runs the service with the given roles until
 * SIGTERM or SIGINT; `--role all` (the default) is `npm start`. A node with only some roles
 * refuses to start without SECRET_KEY_BASE, PostgreSQL and a ClickHouse server (exit 2, one sentence).
 */
export function serveCommands(program: Command, run: (action: () => Promise<void>) => Promise<void>, exit: (code: number) => void): void {
  const roleHelp = NODE_ROLES.map((role) => `${role}: ${NODE_ROLE_PARTS[role]}`).join('; ');
  program
    .command('serve')
    .description('Run the service (HTTP server and background work) with the given roles until SIGTERM or SIGINT')
    .option('--role <roles>', `comma-separated roles, or ${ALL_ROLES_WORD} (${roleHelp})`, ALL_ROLES_WORD)
    .action((opts: { role: string }) =>
      run(async () => {
        const roles = parseRoles(opts.role);
        const config = loadConfig();
        // A node that may not start is refused before the service is loaded; loaded here, not with
        // the other commands: the service and its engine take about a second to load, which every
        // other command (`svc user create`, a typo) would wait for.
        assertMayStart(config, roles);
        const { serveUntilStopped } = await import('../../serve.js');
        exit(await serveUntilStopped(config, roles));
      }),
    );
}
