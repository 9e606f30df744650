import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

const fixtures = new URL('../fixtures/', import.meta.url);
/** The self-signed certificate of the HTTPS receiver; the worker under test trusts it as a CA. */
export const receiverCert = readFileSync(new URL('receiver-cert.pem', fixtures), 'utf8');
export const receiverKey = readFileSync(new URL('receiver-key.pem', fixtures), 'utf8');

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: Buffer;
}

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Never answer (until the receiver closes). */
  hang?: boolean;
}

export interface Receiver {
  /** Base URL, e.g. https://localhost:40123 */
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** How the next requests are answered; defaults to 200 "ok". */
  answer: (request: ReceivedRequest) => Answer;
  close(): Promise<void>;
}

/** A real webhook receiver on loopback: plain HTTP, or HTTPS with the fixture certificate. */
export async function startReceiver(options: { tls: boolean; host?: string }): Promise<Receiver> {
  const hanging = new Set<http.ServerResponse>();
  const receiver: Receiver = {
    url: '',
    port: 0,
    requests: [],
    answer: () => ({ status: 200, body: 'ok' }),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received: ReceivedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, rawBody: Buffer.concat(chunks) };
      receiver.requests.push(received);
      const answer = receiver.answer(received);
      if (answer.hang) {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? '');
    });
  };
  const server = options.tls ? https.createServer({ cert: receiverCert, key: receiverKey }, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `${options.tls ? 'https' : 'http'}://${options.host ?? 'localhost'}:${receiver.port}`;
  return receiver;
}

/**
 * Verification exactly as a receiver does it: the raw body, a 300-second tolerance on `t`,
 * and a constant-time comparison against every `v1` value.
 */
export function verifySignature(rawBody: Buffer, header: string | string[] | undefined, secret: string, nowSeconds: number): boolean {
  if (typeof header !== 'string') return false;
  const parts = header.split(',').map((part) => part.trim());
  const t = parts.find((part) => part.startsWith('t='))?.slice(2);
  const signatures = parts.filter((part) => part.startsWith('v1=')).map((part) => Buffer.from(part.slice(3), 'hex'));
  if (!t || !/^\d+$/.test(t) || Math.abs(nowSeconds - Number(t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest();
  return signatures.some((signature) => signature.length === expected.length && timingSafeEqual(signature, expected));
}
