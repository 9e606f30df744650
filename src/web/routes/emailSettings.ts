import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Acknowledgement } from '../../contracts/acknowledgements.js';
import { type EmailSettings, type EmailTopic, isEmailTopic, recipientRequest, reportSendRequest, thresholdRequest } from '../../contracts/emailReports.js';
import { domainParams } from '../../contracts/params.js';
import { roleIn, SITE_EDITORS } from '../../contracts/roles.js';
import { AppError, badRequest } from '../../errors.js';
import { parseEmail } from '../../management/invitations.js';
import { parsePayload } from '../../management/payload.js';
import type { EmailDeps } from '../../reports/emailDeps.js';
import { addSiteRecipient } from '../../reports/recipients.js';
import { sendDueReports, sendReportTo } from '../../reports/reportSender.js';
import { listRecipients, listThresholds, removeRecipient, setThreshold } from '../../stores/meta/emailRecipients.js';
import { parseIsoDate } from '../../time/localTime.js';
import { requireViewer, type WebDeps } from '../signIn.js';
import { requireViewerSite } from '../siteAccess.js';

/** What every screen and command says when SMTP_URL is not set. */
export const MAIL_NOT_SET_UP =
  'Mail is not set up on this server, so nothing is sent: set SMTP_URL (smtp://user:password@host:587) in the service’s environment and restart it (docs/settings.md, Email reports).';

/**
 * Site settings › Email reports and › Traffic notices (docs/settings.md): the lists of addresses,
 * the notices' thresholds, and the route behind `./bin/svc reports send`. For the site's editors.
 */
export function emailSettingsRoutes(scope: FastifyInstance, deps: WebDeps & { emails: EmailDeps }): void {
  const editorSite = async (request: FastifyRequest) => {
    const { domain } = parsePayload(domainParams, request.params);
    const { site, role, guest } = await requireViewerSite(deps.db, requireViewer(request), domain, deps.clock.now());
    if (guest || !roleIn(role, SITE_EDITORS))
      throw new AppError(403, 'forbidden_role', `Email reports and notices are set by the site's editors, admins and owner; you are a ${role}.`);
    return site;
  };

  scope.get('/app/api/sites/:domain/email-settings', async (request): Promise<EmailSettings> => {
    const site = await editorSite(request);
    const [recipients, thresholds] = await Promise.all([listRecipients(deps.db, site.id), listThresholds(deps.db, site.id)]);
    const rule = (kind: string) => thresholds.find((t) => t.kind === kind);
    const noticed = (kind: string) => {
      const at = rule(kind)?.lastNoticedAt;
      return at == null ? null : new Date(at).toISOString();
    };
    return {
      mail_configured: deps.emails.mailer !== undefined,
      recipients: recipients.flatMap(({ topic, email, createdAt }) =>
        isEmailTopic(topic) ? [{ topic, email, added_at: new Date(createdAt).toISOString() }] : [],
      ),
      thresholds: { spike: rule('spike')?.threshold ?? null, drop: rule('drop')?.threshold ?? null },
      last_noticed: { spike: noticed('spike'), drop: noticed('drop') },
    };
  });

  scope.put('/app/api/sites/:domain/email-recipients', async (request): Promise<{ topic: EmailTopic; email: string }> => {
    const site = await editorSite(request);
    const body = parsePayload(recipientRequest, request.body);
    const email = await addSiteRecipient(deps.db, site.id, body.topic, body.email, deps.clock.now());
    return { topic: body.topic, email };
  });

  scope.delete('/app/api/sites/:domain/email-recipients', async (request): Promise<Acknowledgement<'removed'>> => {
    const site = await editorSite(request);
    const query = parsePayload(recipientRequest, request.query);
    if (!(await removeRecipient(deps.db, site.id, query.topic, query.email.trim().toLowerCase())))
      throw new AppError(404, 'not_found', `${query.email} is not on that list.`);
    return { removed: true };
  });

  scope.put('/app/api/sites/:domain/traffic-thresholds', async (request): Promise<Acknowledgement<'saved'>> => {
    const site = await editorSite(request);
    const body = parsePayload(thresholdRequest, request.body);
    await setThreshold(deps.db, site.id, body.kind, body.threshold);
    return { saved: true };
  });

  scope.post('/app/api/sites/:domain/email-reports/send', async (request) => {
    const site = await editorSite(request);
    const body = parsePayload(reportSendRequest, request.body ?? {});
    const asOf = body.date === undefined ? undefined : parseIsoDate(body.date);
    if (body.date !== undefined && asOf === undefined) throw badRequest('invalid_date', `${body.date} is not a day of the calendar.`);
    const mailer = deps.emails.mailer;
    if (!mailer) throw new AppError(409, 'mail_not_configured', MAIL_NOT_SET_UP);
    if (body.to !== undefined) {
      const email = parseEmail(body.to).toLowerCase();
      return { site: site.domain, sendings: [await sendReportTo({ ...deps.emails, mailer }, site, body.kind ?? 'weekly', email, asOf)] };
    }
    const [result] = await sendDueReports(deps.emails, { siteId: site.id, kind: body.kind, asOf });
    return result ?? { site: site.domain, sendings: [] };
  });
}
