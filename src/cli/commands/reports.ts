import type { Command } from 'commander';
import { REPORT_KINDS, type ReportSendOutcome, reportSendOutcome } from '../../contracts/emailReports.js';
import { AppError, badRequest } from '../../errors.js';
import { sitesWithRecipients } from '../../stores/meta/emailRecipients.js';
import { listTeamMembers } from '../../stores/meta/guests.js';
import { findLiveSiteByName } from '../../stores/meta/sites.js';
import { createWebSession, deleteWebSession } from '../../stores/meta/webSessions.js';
import type { CommandContext } from '../commandContext.js';
import { callServer, refusal, serverAddress } from '../server.js';

/** Long enough for one site's reports to be read and sent; deleted as soon as they are. */
const SEND_SESSION_MS = 5 * 60_000;

/**
 * `svc reports send`: sends the email reports that are due now, through the running server (only
 * it opens the event store the figures come from), by the very function the worker runs
 * (src/reports/reportSender.ts), so a report already sent is not sent again. As `svc export`
 * does, it signs in as each site's team owner with a short session written to the metadata store.
 * With `--to`, one report of one site goes to one address now, outside that record.
 */
export function reportCommands(program: Command, run: (action: (ctx: CommandContext) => Promise<void>) => Promise<void>): void {
  const reports = program.command('reports').description('Email reports (through the running server)');
  reports
    .command('send')
    .description('Send the weekly and monthly reports that are due now, each once per period and recipient')
    .option('--site <domain>', 'only this site (default: every site with recipients)')
    .option('--kind <kind>', `only this report: ${REPORT_KINDS.join(' or ')}`)
    .option('--date <date>', 'send as on this day (YYYY-MM-DD, the site’s time zone): the periods that ended before it, to every current recipient')
    .option('--to <email>', 'send one report (--kind, weekly unless given) of the --site to this address now, on a list or not, sent before or not')
    .option('--url <url>', 'server address (default: BASE_URL)')
    .action((opts: { site?: string; kind?: string; date?: string; to?: string; url?: string }) =>
      run(async ({ meta, clock, out }) => {
        const now = clock.now();
        if (opts.to !== undefined && opts.site === undefined) throw badRequest('invalid_arguments', '--to sends one site’s report: name the site with --site.');
        let sites = await sitesWithRecipients(meta.db, REPORT_KINDS);
        if (opts.site !== undefined) {
          const site = await findLiveSiteByName(meta.db, opts.site, now);
          if (!site) throw new AppError(404, 'not_found', `There is no site ${opts.site}.`);
          sites = [{ id: site.id, teamId: site.teamId, domain: site.domain, timezone: site.timezone }];
        }
        const base = serverAddress(opts.url);
        const body = JSON.stringify({
          ...(opts.kind ? { kind: opts.kind } : {}),
          ...(opts.date ? { date: opts.date } : {}),
          ...(opts.to ? { to: opts.to } : {}),
        });
        const results: ReportSendOutcome[] = [];
        for (const site of sites) results.push(await sendSite(meta, base, site, body, now));
        const lines = results.flatMap((r) => r.sendings.map((s) => `${r.site} ${s.kind} ${s.from}–${s.to} ${s.email}: ${s.outcome.replace('_', ' ')}`));
        out.result({ reports: results }, lines.length > 0 ? lines.join('\n') : 'No report was due: no site has a recipient for it.');
      }),
    );
}

async function sendSite(
  meta: CommandContext['meta'],
  base: string,
  site: { teamId: number; domain: string },
  body: string,
  now: number,
): Promise<ReportSendOutcome> {
  const owner = (await listTeamMembers(meta.db, site.teamId)).find((member) => member.role === 'owner');
  if (!owner) throw new AppError(409, 'no_owner', `The team of ${site.domain} has no owner to send its reports as.`);
  const { token, session } = await createWebSession(meta.db, owner.userId, now, { lifetimeMs: SEND_SESSION_MS });
  try {
    const response = await callServer(base, `/app/api/sites/${encodeURIComponent(site.domain)}/email-reports/send`, {
      method: 'POST',
      headers: { cookie: `svc_session=${token}`, 'x-csrf-token': session.csrfToken, 'content-type': 'application/json' },
      body,
    });
    if (!response.ok) throw await refusal(response, 'send_failed');
    const outcome = reportSendOutcome.safeParse(await response.json().catch(() => null));
    if (!outcome.success) throw new AppError(502, 'unexpected_answer', `The server's answer is not a report sending's outcome (${base}).`);
    return outcome.data;
  } finally {
    await deleteWebSession(meta.db, token);
  }
}
