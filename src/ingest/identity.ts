import { createHmac } from 'node:crypto';
import { isIP } from 'node:net';
import { getDomain } from 'tldts';

/** The registrable domain of a page's host (public-suffix aware), so a.example.com and b.example.com share visitors. */
export function registrableDomain(hostname: string): string {
  if (hostname === '(none)' || isIP(hostname)) return hostname;
  return getDomain(hostname, { allowPrivateDomains: true }) ?? hostname;
}

/**
 * A visitor id: a 64-bit keyed hash (HMAC-SHA-256 cut to 64 bits) of user agent, address, site
 * domain and the page's registrable domain under the day's salt. The address itself goes
 * nowhere else; without the salt, which is deleted after a day, the id cannot be reversed.
 */
export function visitorId(salt: Buffer, parts: { userAgent: string; address: string; domain: string; rootDomain: string }): string {
  const digest = createHmac('sha256', salt).update(`${parts.userAgent}\u0000${parts.address}\u0000${parts.domain}\u0000${parts.rootDomain}`).digest();
  return digest.readBigUInt64BE(0).toString();
}
