import { createHash, randomBytes } from 'node:crypto';
import { SCOPES, type Scope } from '../contracts/scopes.js';

export { SCOPES, type Scope };

export const DEFAULT_HOURLY_LIMIT = 10_000;
const PREFIX = 'svc_';

/** `svc_` + 43 base64url characters: exactly the 256 bits of a CSPRNG read. */
export function generateApiKey(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

export function looksLikeApiKey(token: string): boolean {
  return /^svc_[A-Za-z0-9_-]{43}$/.test(token);
}

/** Only this hash is stored; the key itself is shown once and never again. */
export function hashApiKey(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** What lists may show to identify a key without revealing it. */
export function displayPrefix(token: string): string {
  return token.slice(0, PREFIX.length + 6);
}

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** No scopes given means every scope. */
export function parseScopes(values: readonly string[]): Scope[] | { invalid: string } {
  if (values.length === 0) return [...SCOPES];
  for (const value of values) if (!isScope(value)) return { invalid: value };
  return [...new Set(values as Scope[])];
}
