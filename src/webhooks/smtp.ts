import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { hostname } from 'node:os';
import tls from 'node:tls';
import type { Mail, Mailer } from './mailer.js';

/**
 * A minimal SMTP client for owner notices: smtp:// (upgraded with STARTTLS when offered) or
 * smtps:// (TLS from the start), optional AUTH PLAIN from the URL's user and password, and the
 * sender from `?from=` (default `svc@<server host>`). Plain-text mail only.
 */

const TIMEOUT_MS = 30_000;

interface SmtpSettings {
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

/** Header values come from our own data, but a line break must never start a new header. */
const oneLine = (value: string) => value.replace(/[\r\n]+/g, ' ');

const encodedWord = (value: string) => (/^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value).toString('base64')}?=`);

export function formatMessage(from: string, mail: Mail, now: Date): string {
  const headers = [
    `From: ${oneLine(from)}`,
    `To: ${mail.to.map(oneLine).join(', ')}`,
    `Subject: ${encodedWord(oneLine(mail.subject))}`,
    `Date: ${now.toUTCString()}`,
    `Message-ID: <${randomUUID()}@${oneLine(from.split('@')[1] ?? 'localhost')}>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
  ];
  // Dot-stuffing: a line that starts with "." gets another, so it cannot end the DATA phase.
  const body = mail.text.replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..');
  return `${headers.join('\r\n')}\r\n\r\n${body}\r\n`;
}

/** Reads SMTP replies (possibly multi-line) off a socket, one `reply()` at a time. */
class Conversation {
  private buffer = '';
  private lines: string[] = [];
  private waiting: (() => void) | undefined;
  private failure: Error | undefined;

  constructor(public socket: net.Socket) {
    this.attach(socket);
  }

  attach(socket: net.Socket): void {
    this.socket = socket;
    socket.setTimeout(TIMEOUT_MS, () => socket.destroy(new Error('The mail server stopped answering.')));
    socket.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('utf8');
      let end: number;
      while ((end = this.buffer.indexOf('\r\n')) >= 0) {
        this.lines.push(this.buffer.slice(0, end));
        this.buffer = this.buffer.slice(end + 2);
      }
      this.waiting?.();
    });
    socket.on('error', (error) => {
      this.failure = error;
      this.waiting?.();
    });
    socket.on('close', () => {
      this.failure ??= new Error('The mail server closed the connection.');
      this.waiting?.();
    });
  }

  async reply(expected: number[]): Promise<string[]> {
    for (;;) {
      const last = this.lines.findIndex((line) => /^\d{3}(?: |$)/.test(line));
      if (last >= 0) {
        const reply = this.lines.splice(0, last + 1);
        const code = Number(reply[last]!.slice(0, 3));
        if (!expected.includes(code)) throw new Error(`The mail server answered "${reply.join(' / ')}".`);
        return reply.map((line) => line.slice(4));
      }
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
      });
      this.waiting = undefined;
    }
  }

  async command(line: string, expected: number[]): Promise<string[]> {
    this.socket.write(`${line}\r\n`);
    return this.reply(expected);
  }
}

function connect(settings: SmtpSettings): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = settings.implicitTls
      ? tls.connect({ host: settings.host, port: settings.port, servername: net.isIP(settings.host) ? undefined : settings.host }, () => resolve(socket))
      : net.connect({ host: settings.host, port: settings.port }, () => resolve(socket));
    socket.once('error', reject);
  });
}

function startTls(socket: net.Socket, host: string): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    socket.removeAllListeners('data');
    socket.removeAllListeners('close');
    const secure = tls.connect({ socket, servername: net.isIP(host) ? undefined : host }, () => resolve(secure));
    secure.once('error', reject);
  });
}

export function createSmtpMailer(smtpUrl: string): Mailer {
  const settings = parseSmtpSettings(smtpUrl);
  return {
    async send(mail) {
      const conversation = new Conversation(await connect(settings));
      try {
        await conversation.reply([220]);
        const helo = `EHLO ${hostname() || 'localhost'}`;
        let features = await conversation.command(helo, [250]);
        if (!settings.implicitTls && features.some((line) => /^STARTTLS\b/i.test(line))) {
          await conversation.command('STARTTLS', [220]);
          conversation.attach(await startTls(conversation.socket, settings.host));
          features = await conversation.command(helo, [250]);
        }
        if (settings.user) {
          const credentials = Buffer.from(`\u0000${settings.user}\u0000${settings.password}`).toString('base64');
          await conversation.command(`AUTH PLAIN ${credentials}`, [235]);
        }
        await conversation.command(`MAIL FROM:<${oneLine(settings.from)}>`, [250]);
        for (const to of mail.to) await conversation.command(`RCPT TO:<${oneLine(to)}>`, [250, 251]);
        await conversation.command('DATA', [354]);
        await conversation.command(`${formatMessage(settings.from, mail, new Date())}.`, [250]);
        await conversation.command('QUIT', [221]).catch(() => undefined);
      } finally {
        conversation.socket.destroy();
      }
    },
  };
}
