import { createHmac, randomBytes } from 'node:crypto';

/** `whsec_` + 43 base64url characters: the 256 bits of a CSPRNG read. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** HMAC-SHA256 over `<t>.<raw body>`, hex: what a receiver recomputes from the raw body. */
export function signPayload(secret: string, unixSeconds: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${unixSeconds}.`).update(rawBody).digest('hex');
}

/**
 * The `Svc-Signature` value. During a rotation's overlap hour it carries one `v1=` per live
 * secret, newest first, so a receiver still on the old secret verifies as well.
 */
export function signatureHeader(secrets: readonly string[], unixSeconds: number, rawBody: string): string {
  return [`t=${unixSeconds}`, ...secrets.map((secret) => `v1=${signPayload(secret, unixSeconds, rawBody)}`)].join(',');
}
