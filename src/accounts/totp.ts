import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords as authenticator apps compute them (RFC 6238 over RFC 4226's
 * HOTP): HMAC-SHA1 of the number of 30-second steps since the epoch, six digits. A code is
 * accepted one step early or late (clock drift between the phone and the server), and a step once
 * used is not accepted again (the caller keeps the last one, users.totp_last_step).
 */
export const TOTP = { stepMs: 30_000, digits: 6, drift: 1, secretBytes: 20, issuer: 'svc analytics' } as const;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding: how authenticator apps take a secret. */
export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=-]/g, '').toUpperCase();
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`"${char}" is not a base32 character.`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** A new secret of 160 bits (RFC 4226 §4 recommends at least that), base32. */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(TOTP.secretBytes));
}

export const totpStep = (now: number) => Math.floor(now / TOTP.stepMs);

/** The code of one step (RFC 4226 §5.3: dynamic truncation). */
export function totpCode(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const hmac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = (hmac[hmac.length - 1] as number) & 15;
  const binary = hmac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** TOTP.digits).padStart(TOTP.digits, '0');
}

/** Six digits, spaces allowed (apps show "123 456"). */
export const looksLikeTotpCode = (input: string) => /^\d{6}$/.test(input.replace(/\s/g, ''));

/**
 * The step a code matches, within the allowed drift and after `lastStep` (a code is good once);
 * null when it matches none.
 */
export function matchTotp(secret: string, input: string, now: number, lastStep: number | null): number | null {
  const code = Buffer.from(input.replace(/\s/g, ''));
  const current = totpStep(now);
  for (let step = current - TOTP.drift; step <= current + TOTP.drift; step += 1) {
    if (lastStep !== null && step <= lastStep) continue;
    const expected = Buffer.from(totpCode(secret, step));
    if (code.length === expected.length && timingSafeEqual(code, expected)) return step;
  }
  return null;
}

/** The otpauth:// URI an authenticator app reads from the QR code (Key Uri Format, as Google Authenticator defines it). */
export function totpUri(secret: string, account: string): string {
  const label = encodeURIComponent(`${TOTP.issuer}:${account}`);
  const params = new URLSearchParams({ secret, issuer: TOTP.issuer, algorithm: 'SHA1', digits: String(TOTP.digits), period: String(TOTP.stepMs / 1000) });
  return `otpauth://totp/${label}?${params}`;
}
