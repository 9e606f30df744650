import { z } from 'zod';

/**
 * Site settings › Email reports and › Traffic notices (docs/settings.md): who gets a site's weekly
 * and monthly reports and its spike and drop notices, the notices' thresholds, the unsubscribe link
 * every such mail carries, and `./bin/svc reports send`.
 */

/** The reports: weekly (Monday, for the Monday–Sunday before) and monthly (the 1st, for the month before). */
export const REPORT_KINDS = ['weekly', 'monthly'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** The traffic notices: current visitors at or above a threshold, visitors over 12 hours below one. */
export const NOTICE_KINDS = ['spike', 'drop'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** What a recipient is on the list for. */
export const EMAIL_TOPICS = [...REPORT_KINDS, ...NOTICE_KINDS] as const;
export type EmailTopic = (typeof EMAIL_TOPICS)[number];
export const isEmailTopic = (topic: string): topic is EmailTopic => (EMAIL_TOPICS as readonly string[]).includes(topic);

/** PUT /app/api/sites/:domain/email-recipients, and DELETE's query string. */
export const recipientRequest = z.strictObject({ topic: z.enum(EMAIL_TOPICS), email: z.string().max(320) });

/** PUT /app/api/sites/:domain/traffic-thresholds: null turns the notice off. */
export const thresholdRequest = z.strictObject({
  kind: z.enum(NOTICE_KINDS),
  threshold: z.number().int().min(1).max(1_000_000_000).nullable(),
});

/** GET /app/api/sites/:domain/email-settings: both sections' state. */
export const emailSettings = z.object({
  /** Whether SMTP_URL is set: without it nothing is sent and the screens say so. */
  mail_configured: z.boolean(),
  recipients: z.array(z.object({ topic: z.enum(EMAIL_TOPICS), email: z.string(), added_at: z.string() })),
  thresholds: z.object({ spike: z.number().nullable(), drop: z.number().nullable() }),
  /** When the last notice of each kind went out (the 12-hour quiet time runs from it), or null. */
  last_noticed: z.object({ spike: z.string().nullable(), drop: z.string().nullable() }),
});
export type EmailSettings = z.infer<typeof emailSettings>;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD');

/** POST /app/api/sites/:domain/email-reports/send (`./bin/svc reports send`). */
export const reportSendRequest = z.strictObject({
  kind: z.enum(REPORT_KINDS).optional(),
  /** Send as on this day (the site's time zone): the reports of the periods that ended before it. */
  date: isoDate.optional(),
  /** One report (`kind`, weekly unless given) to this one address now, whether or not it is on a list or got it already; not recorded as a sending. */
  to: z.string('must be an email address').max(320, 'must be an email address').optional(),
});

export const REPORT_OUTCOMES = ['sent', 'already_sent', 'failed', 'interrupted', 'no_mail'] as const;

export const reportSendOutcome = z.object({
  site: z.string(),
  sendings: z.array(
    z.object({
      kind: z.enum(REPORT_KINDS),
      from: z.string(),
      to: z.string(),
      email: z.string(),
      outcome: z.enum(REPORT_OUTCOMES),
    }),
  ),
});
export type ReportSendOutcome = z.infer<typeof reportSendOutcome>;

/** POST /unsubscribe: the signed token of the mail's link (or RFC 8058's one-click form). */
export const unsubscribeRequest = z.object({ token: z.string().min(1).max(2000) });
