export interface Mail {
  to: string[];
  subject: string;
  text: string;
}

/** Sends a plain-text email; configured by SMTP_URL. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}
