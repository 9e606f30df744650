import { createTransport } from 'nodemailer';
import type { Mailer } from './mailer.js';

/**
 * Email through the SMTP server SMTP_URL names (docs/webhooks.md, Settings): smtp:// upgraded
 * with STARTTLS when the server offers it (port 587 unless given), smtps:// TLS from the start
 * (465); the URL's user and password log in; `?from=` is the sender, `svc@<server host>`
 * without it. Every recipient of a mail is on one message.
 */

/** How long the server may take to accept the connection, to greet, or to answer any one command. */
const TIMEOUT_MS = 30_000;

export interface SmtpSettings {
  host: string;
  port: number;
  implicitTls: boolean;
  user: string;
  password: string;
  from: string;
}

export function parseSmtpSettings(smtpUrl: string): SmtpSettings {
  const url = new URL(smtpUrl);
  const implicitTls = url.protocol === 'smtps:';
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : implicitTls ? 465 : 587,
    implicitTls,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    from: url.searchParams.get('from') ?? `svc@${url.hostname}`,
  };
}

export function createSmtpMailer(smtpUrl: string, options: { tlsCa?: string | Buffer } = {}): Mailer {
  const settings = parseSmtpSettings(smtpUrl);
  // One connection per mail: a few notices a day do not pay for a pool.
  const transport = createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.implicitTls,
    auth: settings.user ? { user: settings.user, pass: settings.password } : undefined,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
    // Certificate authorities to trust instead of the system's; only tests set them.
    tls: options.tlsCa === undefined ? undefined : { ca: options.tlsCa },
  });
  return {
    async send(mail) {
      await transport.sendMail({ from: settings.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, headers: mail.headers });
    },
  };
}
