import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Command } from 'commander';
import { AppError } from '../../errors.js';
import { listTeamMembers } from '../../stores/meta/guests.js';
import { findLiveSiteByName } from '../../stores/meta/sites.js';
import { createWebSession, deleteWebSession } from '../../stores/meta/webSessions.js';
import type { CommandContext } from '../commandContext.js';
import { callServer, refusal, serverAddress } from '../server.js';

/** Long enough for a large export to start; the session is deleted as soon as the download ends. */
const EXPORT_SESSION_MS = 10 * 60_000;

/**
 * `svc export`: downloads a site's export ZIP from the running server (only it opens the event
 * store). It signs in as the site's team owner with a short web-app session it writes straight to
 * the metadata store — as every metadata command may — and calls the settings screen's download
 * route, which, unlike the API, works in every account state: a locked team can still export.
 */
export function exportCommands(program: Command, run: (action: (ctx: CommandContext) => Promise<void>) => Promise<void>): void {
  program
    .command('export')
    .description("Download a site's export ZIP (the ten daily tables in Plausible's CSV format and every raw event) from the running server")
    .requiredOption('--site <domain>', 'the site to export')
    .requiredOption('--out <file>', 'where to write the ZIP')
    .option('--from <date>', 'first day (YYYY-MM-DD, site time zone; default: the day the site was added)')
    .option('--to <date>', 'last day (default: today)')
    .option('--url <url>', 'server address (default: BASE_URL)')
    .action((opts: { site: string; out: string; from?: string; to?: string; url?: string }) =>
      run(async ({ meta, clock, out }) => {
        const now = clock.now();
        const site = await findLiveSiteByName(meta.db, opts.site, now);
        if (!site) throw new AppError(404, 'not_found', `There is no site ${opts.site}.`);
        const owner = (await listTeamMembers(meta.db, site.teamId)).find((member) => member.role === 'owner');
        if (!owner) throw new AppError(409, 'no_owner', `The team of ${site.domain} has no owner to export as.`);
        const base = serverAddress(opts.url);
        const query = new URLSearchParams({ ...(opts.from ? { from: opts.from } : {}), ...(opts.to ? { to: opts.to } : {}) });
        const { token } = await createWebSession(meta.db, owner.userId, now, { lifetimeMs: EXPORT_SESSION_MS });
        try {
          const response = await callServer(base, `/app/api/sites/${encodeURIComponent(site.domain)}/export?${query}`, {
            headers: { cookie: `svc_session=${token}` },
          });
          if (!response.ok || !response.body) throw await refusal(response, 'export_failed');
          try {
            await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(opts.out));
          } catch (error) {
            throw new AppError(
              500,
              'export_failed',
              `The export stopped before it was complete (${error instanceof Error ? error.message : String(error)}); ${opts.out} is incomplete.`,
            );
          }
          const file = response.headers.get('content-disposition')?.match(/filename="([^"]+)"/)?.[1] ?? null;
          out.result({ site: site.domain, out: opts.out, file }, `Exported ${site.domain} to ${opts.out}.`);
        } finally {
          await deleteWebSession(meta.db, token);
        }
      }),
    );
}
