/** One email: plain text, and an HTML alternative when given. */
export interface Mail {
  to: string[];
  subject: string;
  text: string;
  html?: string | undefined;
  /** Extra header fields, such as List-Unsubscribe (RFC 2369, 8058) on reports and notices. */
  headers?: Record<string, string> | undefined;
}

/** Sends email; the service has one when SMTP_URL is set (src/mail/smtpMailer.ts). */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}
