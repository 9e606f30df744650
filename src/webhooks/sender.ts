import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { LOGGED_RESPONSE_BYTES } from '../contracts/webhookPolicy.js';
import { isDevelopmentHost, refusedAddress } from './addresses.js';
import { bareHost } from './webhookUrl.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Name resolution, replaceable so tests can point made-up names at loopback receivers. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export type AttemptError = 'timeout' | 'redirect_refused' | 'connection_error' | 'address_refused';

/** What one POST to a receiver came to; a failure is anything but `ok`. */
export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  error: AttemptError | null;
  detail: string | null;
  durationMs: number;
  /** The first 2 KB of the response body, decoded as UTF-8. */
  responseBody: string;
  responseTruncated: boolean;
}

export interface SendRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
  resolve?: Resolver | undefined;
  /** Extra certificate authorities to trust (tests trust their self-signed receiver this way). */
  tlsCa?: string | Buffer | undefined;
}

class Refused extends Error {}

/** Resolves the host once and checks every address; the connection then goes to checked ones only. */
async function checkedAddresses(url: URL, request: SendRequest): Promise<ResolvedAddress[]> {
  const host = bareHost(url);
  const family = isIP(host);
  const addresses = family !== 0 ? [{ address: host, family }] : await (request.resolve ?? systemResolver)(host);
  if (addresses.length === 0) throw new Refused(`${host} resolves to no address.`);
  const rules = { loopbackAllowed: isDevelopmentHost(url.hostname), privateAllowed: request.allowPrivate };
  // One refused answer refuses the lot: whoever controls the name could otherwise mix them.
  for (const { address } of addresses) {
    const refusal = refusedAddress(address, rules);
    if (refusal) throw new Refused(`${host} resolves to a refused address: ${refusal}`);
  }
  return addresses;
}

const cleanText = (bytes: Buffer) => bytes.toString('utf8').replaceAll('\u0000', '\uFFFD');

/**
 * POSTs one delivery. Never follows a redirect, reads at most 2 KB of the answer, and gives up
 * after `timeoutMs` in all (resolution, connection, answer). Never throws.
 */
export async function sendWebhook(request: SendRequest): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failure = (error: AttemptError, detail: string): AttemptOutcome => ({
    ok: false,
    statusCode: null,
    error,
    detail,
    durationMs: elapsed(),
    responseBody: '',
    responseTruncated: false,
  });

  const url = new URL(request.url);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), request.timeoutMs);
  try {
    let targets: ResolvedAddress[];
    try {
      targets = await Promise.race([
        checkedAddresses(url, request),
        new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true })),
      ]);
    } catch (error) {
      if (error instanceof Refused) return failure('address_refused', error.message);
      if (controller.signal.aborted) return failure('timeout', `No answer within ${request.timeoutMs / 1000} seconds (resolving ${url.hostname}).`);
      return failure('connection_error', `Could not resolve ${url.hostname}: ${(error as Error).message}`);
    }
    return await post(url, targets, request, controller.signal, elapsed);
  } finally {
    clearTimeout(timer);
  }
}

function post(url: URL, targets: ResolvedAddress[], request: SendRequest, signal: AbortSignal, elapsed: () => number): Promise<AttemptOutcome> {
  const host = bareHost(url);
  // Hand the connection the addresses that were checked, never a second resolution. With
  // `all` (Node's address-family racing) it may try each of them, all checked.
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all)
      callback(
        null,
        targets.map(({ address, family }) => ({ address, family })),
      );
    else callback(null, targets[0]!.address, targets[0]!.family);
  };
  const secure = url.protocol === 'https:';
  const options: https.RequestOptions = {
    method: 'POST',
    hostname: host,
    port: url.port || (secure ? 443 : 80),
    path: `${url.pathname}${url.search}`,
    headers: { ...request.headers, host: url.host, 'content-length': String(Buffer.byteLength(request.body)), connection: 'close' },
    agent: false,
    lookup: pinned,
    signal,
    ...(secure ? { servername: isIP(host) === 0 ? host : undefined, ca: request.tlsCa } : {}),
  };

  return new Promise((resolvePromise) => {
    let settled = false;
    const settle = (outcome: Omit<AttemptOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolvePromise({ ...outcome, durationMs: elapsed() });
    };
    const req = (secure ? https : http).request(options, (res) => {
      const statusCode = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let received = 0;
      const finish = () => {
        const bytes = Buffer.concat(chunks);
        const redirect = statusCode >= 300 && statusCode < 400;
        settle({
          ok: statusCode >= 200 && statusCode < 300,
          statusCode,
          error: redirect ? 'redirect_refused' : null,
          detail: redirect ? `Redirect to ${String(res.headers.location ?? '(no location)')} refused; deliveries never follow redirects.` : null,
          responseBody: cleanText(bytes.subarray(0, LOGGED_RESPONSE_BYTES)),
          responseTruncated: received > LOGGED_RESPONSE_BYTES,
        });
      };
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.length;
        if (received > LOGGED_RESPONSE_BYTES) {
          finish();
          res.destroy();
        }
      });
      res.on('end', finish);
      // The status decides the outcome; a body cut short (time-out, reset) keeps what arrived.
      res.on('error', finish);
      res.on('close', finish);
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      const timedOut = signal.aborted;
      settle({
        ok: false,
        statusCode: null,
        error: timedOut ? 'timeout' : 'connection_error',
        detail: timedOut ? `No answer within ${request.timeoutMs / 1000} seconds.` : `${error.code ? `${error.code}: ` : ''}${error.message}`,
        responseBody: '',
        responseTruncated: false,
      });
    });
    req.end(request.body);
  });
}
