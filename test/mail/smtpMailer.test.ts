import { afterEach, describe, expect, it } from 'vitest';
import { createSmtpMailer, parseSmtpSettings } from '../../src/mail/smtpMailer.js';
import { receiverCert } from '../webhooks/support/receiver.js';
import { type MailServer, startMailServer } from './mailServer.js';

const servers: MailServer[] = [];
async function server(options: Parameters<typeof startMailServer>[0] = {}): Promise<MailServer> {
  const started = await startMailServer(options);
  servers.push(started);
  return started;
}
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

describe('SMTP_URL', () => {
  it('names the server, the login and the sender (?from=, or svc@<server host>)', () => {
    expect(parseSmtpSettings('smtp://u%40x:p@mail.example.com?from=alerts@example.com')).toEqual({
      host: 'mail.example.com',
      port: 587,
      implicitTls: false,
      user: 'u@x',
      password: 'p',
      from: 'alerts@example.com',
    });
    expect(parseSmtpSettings('smtps://mail.example.com')).toMatchObject({ port: 465, implicitTls: true, user: '', from: 'svc@mail.example.com' });
    expect(parseSmtpSettings('smtp://[::1]:2525')).toMatchObject({ host: '::1', port: 2525 });
  });
});

describe('sending', () => {
  it('sends plain text to every recipient in one message, logged in with the URL user and password', async () => {
    const mail = await server();
    const mailer = createSmtpMailer(`smtp://alerts:s3cret@127.0.0.1:${mail.port}?from=alerts@svc.example`);
    const text = `Line one.\n.A line that starts with a dot.\n${'A long line. '.repeat(12)}\nUmlaute: äöü`;
    await mailer.send({ to: ['one@example.com', 'two@example.com'], subject: 'Ein Endpunkt braucht Aufmerksamkeit — bitte prüfen', text });

    expect(mail.mails).toHaveLength(1);
    const [sent] = mail.mails;
    expect(sent).toMatchObject({
      login: { method: 'PLAIN', username: 'alerts', password: 's3cret' },
      secure: false,
      from: 'alerts@svc.example',
      to: ['one@example.com', 'two@example.com'],
      text,
      html: null,
    });
    expect(sent!.headers).toMatchObject({
      from: 'alerts@svc.example',
      to: 'one@example.com, two@example.com',
      subject: 'Ein Endpunkt braucht Aufmerksamkeit — bitte prüfen',
    });
  });

  it('adds the HTML part when given one', async () => {
    const mail = await server();
    await createSmtpMailer(`smtp://127.0.0.1:${mail.port}?from=reports@svc.example`).send({
      to: ['owner@example.com'],
      subject: 'Weekly report',
      text: 'Visitors: 1,234',
      html: '<p>Visitors: <strong>1,234</strong></p>',
    });
    const [sent] = mail.mails;
    expect(sent).toMatchObject({ login: null, from: 'reports@svc.example', to: ['owner@example.com'], text: 'Visitors: 1,234' });
    expect(sent!.html).toBe('<p>Visitors: <strong>1,234</strong></p>');
    expect(sent!.headers['content-type']).toMatch(/^multipart\/alternative/);
  });

  it('upgrades smtp:// with STARTTLS when the server offers it, and sends as svc@<server host> without ?from=', async () => {
    const mail = await server({ tls: 'starttls' });
    await createSmtpMailer(`smtp://alerts:s3cret@localhost:${mail.port}`, { tlsCa: receiverCert }).send({ to: ['owner@example.com'], subject: 'S', text: 'T' });
    expect(mail.mails[0]).toMatchObject({ secure: true, from: 'svc@localhost', login: { username: 'alerts', password: 's3cret' }, text: 'T' });
  });

  it('speaks TLS from the start with smtps://, and checks the certificate', async () => {
    const mail = await server({ tls: 'implicit' });
    await createSmtpMailer(`smtps://localhost:${mail.port}?from=alerts@svc.example`, { tlsCa: receiverCert }).send({
      to: ['owner@example.com'],
      subject: 'S',
      text: 'T',
    });
    expect(mail.mails[0]).toMatchObject({ secure: true, from: 'alerts@svc.example', text: 'T' });
    // A certificate no trusted authority signed is refused: nothing is sent.
    await expect(createSmtpMailer(`smtps://localhost:${mail.port}`).send({ to: ['owner@example.com'], subject: 'S', text: 'T' })).rejects.toThrow(
      /certificate/,
    );
    expect(mail.mails).toHaveLength(1);
  });

  it('fails when the server refuses the login or cannot be reached', async () => {
    const mail = await server({ refuseLogin: true });
    await expect(createSmtpMailer(`smtp://alerts:wrong@127.0.0.1:${mail.port}`).send({ to: ['owner@example.com'], subject: 'S', text: 'T' })).rejects.toThrow(
      /Invalid username or password/,
    );
    await mail.close();
    await expect(createSmtpMailer(`smtp://127.0.0.1:${mail.port}`).send({ to: ['owner@example.com'], subject: 'S', text: 'T' })).rejects.toThrow(
      /ECONNREFUSED/,
    );
    expect(mail.mails).toEqual([]);
  });
});
