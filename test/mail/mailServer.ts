import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { receiverCert, receiverKey } from '../webhooks/support/receiver.js';

export interface ReceivedMail {
  /** The login the client gave, or null without one. */
  login: { method: string; username: string; password: string } | null;
  /** Whether the message went over TLS (implicit, or after STARTTLS). */
  secure: boolean;
  /** The envelope: MAIL FROM and RCPT TO. */
  from: string;
  to: string[];
  /** Header fields (lower-case names, unfolded, encoded words decoded). */
  headers: Record<string, string>;
  text: string;
  /** The HTML alternative, if the message had one. */
  html: string | null;
}

export interface MailServer {
  port: number;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * A real SMTP server (the smtp-server package) on a free loopback port that accepts every
 * login and message and keeps what arrived. `tls`: `none` offers no STARTTLS, `starttls`
 * offers it, `implicit` is TLS from the start; the certificate is the webhook test receiver's
 * (localhost, 127.0.0.1), so the client needs it as its certificate authority.
 */
export async function startMailServer(options: { tls?: 'none' | 'starttls' | 'implicit'; refuseLogin?: boolean } = {}): Promise<MailServer> {
  const tls = options.tls ?? 'none';
  const mails: ReceivedMail[] = [];
  const logins = new Map<string, ReceivedMail['login']>();
  const server = new SMTPServer({
    secure: tls === 'implicit',
    key: receiverKey,
    cert: receiverCert,
    disabledCommands: tls === 'none' ? ['STARTTLS'] : [],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, session, callback) {
      if (options.refuseLogin) return callback(new Error('Invalid username or password'));
      logins.set(session.id, { method: auth.method, username: auth.username ?? '', password: auth.password ?? '' });
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mailFrom = session.envelope.mailFrom;
        mails.push({
          login: logins.get(session.id) ?? null,
          secure: session.secure,
          from: mailFrom ? mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          ...readMessage(Buffer.concat(chunks).toString('utf8')),
        });
        callback();
      });
    },
  });
  // A client that refuses the certificate drops the connection mid-handshake; the server reports
  // that as an 'error' event, which would otherwise be thrown.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Headers and body of one MIME entity (RFC 5322 §2.1: the first empty line ends the header). */
function entity(raw: string): { headers: Record<string, string>; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const head = end < 0 ? raw : raw.slice(0, end);
  const headers: Record<string, string> = {};
  for (const field of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = field.indexOf(':');
    if (colon > 0) headers[field.slice(0, colon).trim().toLowerCase()] = decodeWords(field.slice(colon + 1).trim());
  }
  return { headers, body: end < 0 ? '' : raw.slice(end + 4) };
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`); the space between two of them goes. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?[^?]+\?([QqBb])\?([^?]*)\?=/g, (_, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : quotedPrintable(text.replaceAll('_', ' ')),
    );
}

function quotedPrintable(text: string): string {
  const bytes: number[] = [];
  const input = text.replace(/=\r\n/g, '');
  for (let i = 0; i < input.length; i += 1) {
    if (input[i] === '=' && /^[0-9A-F]{2}$/i.test(input.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(input.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(input[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeBody(headers: Record<string, string>, body: string): string {
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const decoded = encoding === 'base64' ? Buffer.from(body, 'base64').toString('utf8') : encoding === 'quoted-printable' ? quotedPrintable(body) : body;
  // The line break that ends the entity before the next boundary (or the end) is not content.
  return decoded.replace(/\r\n$/, '').replace(/\r\n/g, '\n');
}

/** The text and HTML parts of a message: a single text/plain entity, or multipart/alternative. */
function readMessage(raw: string): Pick<ReceivedMail, 'headers' | 'text' | 'html'> {
  const { headers, body } = entity(raw);
  const boundary = /boundary="?([^";]+)"?/.exec(headers['content-type'] ?? '')?.[1];
  const parts = boundary
    ? body
        .split(`--${boundary}`)
        .slice(1, -1)
        .map((part) => entity(part.replace(/^\r\n/, '')))
    : [{ headers, body }];
  const part = (type: string) => parts.find((p) => (p.headers['content-type'] ?? 'text/plain').startsWith(type));
  const text = part('text/plain');
  const html = part('text/html');
  return { headers, text: text ? decodeBody(text.headers, text.body) : '', html: html ? decodeBody(html.headers, html.body) : null };
}
