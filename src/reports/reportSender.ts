import { REPORT_KINDS, type ReportKind, type ReportSendOutcome } from '../contracts/emailReports.js';
import type { Mailer } from '../mail/mailer.js';
import { recipientsOf, sitesWithRecipients } from '../stores/meta/emailRecipients.js';
import { claimSending, closeInterrupted, markFailed, markSent, type SendingKey, sendingState } from '../stores/meta/reportSendings.js';
import type { LocalDate } from '../time/localTime.js';
import type { EmailDeps } from './emailDeps.js';
import { latestDuePeriod, periodEndingBefore, type ReportPeriod } from './periods.js';
import { loadReport, type ReportContent } from './reportContent.js';
import { dashboardUrl, reportMail } from './reportMail.js';
import { unsubscribeUrl } from './unsubscribe.js';

/**
 * Sends the email reports that are due, each exactly once per site, kind, period and recipient —
 * on the worker under the `email-reports` lease (src/backgroundJobs.ts), and behind
 * `./bin/svc reports send` through the same function.
 *
 * The guarantee (docs/settings.md, Email reports): a row of `report_sendings` is inserted, in state
 * `sending`, before the mail is handed to the SMTP server; the insert is the claim, and of any
 * number of nodes, rounds or restarts only one inserts it. So a report is never sent twice. Once
 * the server accepts the mail the row becomes `sent`. When the server refuses it (nothing left),
 * the row becomes `failed` and a later round tries again, up to MAX_ATTEMPTS in all. When the
 * sender dies between the claim and the server's answer, whether the mail left is unknown: after
 * INTERRUPTED_AFTER_MS the row is closed as `interrupted` and logged as an error, and not sent
 * again — at most once, never skipped without a trace.
 */

export const MAX_ATTEMPTS = 3;
/** Longer than one send can take (the SMTP sender's time-outs are 30 s per step). */
export const INTERRUPTED_AFTER_MS = 15 * 60_000;

export type Sending = ReportSendOutcome['sendings'][number];

export interface SendOptions {
  siteId?: number;
  kind?: ReportKind;
  /** Send as on this day (the CLI's --date): the periods that ended before it, to every current recipient. */
  asOf?: LocalDate;
}

type Site = Awaited<ReturnType<typeof sitesWithRecipients>>[number];

export async function sendDueReports(deps: EmailDeps, options: SendOptions = {}): Promise<{ site: string; sendings: Sending[] }[]> {
  const now = deps.clock.now();
  for (const row of await closeInterrupted(deps.db, now - INTERRUPTED_AFTER_MS)) {
    deps.log.error(
      { siteId: row.siteId, kind: row.kind, periodStart: row.periodStart, email: row.email },
      'a report sending was interrupted between its claim and the SMTP server’s answer; it may not have arrived and is not sent again',
    );
  }
  const kinds = options.kind ? [options.kind] : REPORT_KINDS;
  const sites = (await sitesWithRecipients(deps.db, kinds)).filter((site) => options.siteId === undefined || site.id === options.siteId);
  const results: { site: string; sendings: Sending[] }[] = [];
  for (const site of sites) {
    const sendings: Sending[] = [];
    for (const kind of kinds) {
      const period = options.asOf ? periodEndingBefore(kind, options.asOf, site.timezone) : latestDuePeriod(kind, now, site.timezone);
      try {
        sendings.push(...(await sendPeriod(deps, site, period, options.asOf === undefined)));
      } catch (error) {
        deps.log.error({ err: error, siteId: site.id, kind }, 'could not prepare a report; the next round tries again');
      }
    }
    results.push({ site: site.domain, sendings });
  }
  return results;
}

/** One site's report for one period to each of its recipients; the figures are read once, and only when someone is still to get them. */
async function sendPeriod(deps: EmailDeps, site: Site, period: ReportPeriod, onlyThoseAddedByDue: boolean): Promise<Sending[]> {
  // A recipient added after the report fell due gets the next one, not this one late.
  const emails = await recipientsOf(deps.db, site.id, period.kind, onlyThoseAddedByDue ? period.dueAt : undefined);
  const said = (email: string, result: Sending['outcome']): Sending => ({ kind: period.kind, from: period.from, to: period.to, email, outcome: result });
  const mailer = deps.mailer;
  if (!mailer) return emails.map((email) => said(email, 'no_mail'));
  const keyOf = (email: string): SendingKey => ({ siteId: site.id, kind: period.kind, periodStart: period.from, email });
  const open: string[] = [];
  const sendings: Sending[] = [];
  for (const email of emails) {
    const state = await sendingState(deps.db, keyOf(email));
    if (state === undefined || state === 'failed') open.push(email);
    else sendings.push(said(email, state === 'interrupted' ? 'interrupted' : 'already_sent'));
  }
  if (open.length === 0) return sendings;
  const content = await loadReport(deps.engine, site, period);
  for (const email of open) {
    if (!(await claimSending(deps.db, keyOf(email), deps.clock.now(), MAX_ATTEMPTS))) {
      sendings.push(said(email, 'already_sent'));
      continue;
    }
    sendings.push(said(email, await deliver({ ...deps, mailer }, content, site, email, keyOf(email))));
  }
  return sendings.sort((a, b) => a.email.localeCompare(b.email));
}

/** Builds a report's mail for one address and hands it to the SMTP server; throws when the server refuses it. */
async function mailReport(deps: EmailDeps & { mailer: Mailer }, content: ReportContent, site: Site, email: string): Promise<void> {
  const mail = reportMail(content, {
    dashboard: dashboardUrl(deps.baseUrl, site.domain, content.period),
    unsubscribe: unsubscribeUrl(deps.baseUrl, deps.tokens.sign({ site: site.id, topic: content.period.kind, email })),
  });
  await deps.mailer.send({ to: [email], subject: mail.subject, text: mail.text, html: mail.html, headers: mail.headers });
}

/**
 * One report to one address now (`./bin/svc reports send --to`): the latest period due, or the one
 * ending before `asOf`, whether or not the address is on the site's list. It is a copy outside the
 * schedule, so it is neither claimed nor recorded in `report_sendings`, and the scheduled mails
 * of that period still go out once each.
 */
export async function sendReportTo(deps: EmailDeps & { mailer: Mailer }, site: Site, kind: ReportKind, email: string, asOf?: LocalDate): Promise<Sending> {
  const period = asOf ? periodEndingBefore(kind, asOf, site.timezone) : latestDuePeriod(kind, deps.clock.now(), site.timezone);
  const content = await loadReport(deps.engine, site, period);
  const sending = (outcome: Sending['outcome']): Sending => ({ kind, from: period.from, to: period.to, email, outcome });
  try {
    await mailReport(deps, content, site, email);
    return sending('sent');
  } catch (error) {
    deps.log.warn({ siteId: site.id, kind, periodStart: period.from, email, err: error }, 'the SMTP server refused a report sent by hand');
    return sending('failed');
  }
}

async function deliver(deps: EmailDeps & { mailer: Mailer }, content: ReportContent, site: Site, email: string, key: SendingKey): Promise<Sending['outcome']> {
  try {
    await mailReport(deps, content, site, email);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await markFailed(deps.db, key, message);
    deps.log.warn(
      { siteId: site.id, kind: key.kind, periodStart: key.periodStart, email, err: error },
      'the SMTP server refused a report; a later round tries again',
    );
    return 'failed';
  }
  await markSent(deps.db, key, deps.clock.now());
  return 'sent';
}
