import type { AddressInfo } from 'node:net';
import net from 'node:net';

export interface ReceivedMail {
  auth: string | null;
  from: string;
  to: string[];
  data: string;
}

/** A loopback SMTP server that accepts everything and keeps what it was sent. */
export async function startMailServer(): Promise<{ port: number; mails: ReceivedMail[]; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let inData = false;
    let current: ReceivedMail = { auth: null, from: '', to: [], data: '' };
    const say = (line: string) => socket.write(`${line}\r\n`);
    say('220 test.local ESMTP');
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            mails.push(current);
            current = { auth: current.auth, from: '', to: [], data: '' };
            say('250 queued');
          } else current.data += `${line}\n`;
          continue;
        }
        const [verb = ''] = line.split(' ');
        switch (verb.toUpperCase()) {
          case 'EHLO':
            say('250-test.local');
            say('250 AUTH PLAIN');
            break;
          case 'AUTH':
            current.auth = Buffer.from(line.split(' ')[2] ?? '', 'base64').toString('utf8');
            say('235 ok');
            break;
          case 'MAIL':
            current.from = /<(.*)>/.exec(line)?.[1] ?? '';
            say('250 ok');
            break;
          case 'RCPT':
            current.to.push(/<(.*)>/.exec(line)?.[1] ?? '');
            say('250 ok');
            break;
          case 'DATA':
            inData = true;
            say('354 go ahead');
            break;
          case 'QUIT':
            say('221 bye');
            socket.end();
            break;
          default:
            say('502 not implemented');
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
