import { createHmac } from 'node:crypto';
import { isIP } from 'node:net';
import { getDomain } from 'tldts';

/** The registrable domain of a page's host (public-suffix aware), so a.example.com and b.example.com share visitors. */
export function registrableDomain(hostname: string): string {
  let domain = rootDomains.get(hostname);
  if (domain === undefined) {
    domain = hostname === '(none)' || isIP(hostname) ? hostname : (getDomain(hostname, { allowPrivateDomains: true }) ?? hostname);
    if (rootDomains.size >= 10_000) rootDomains.clear();
    rootDomains.set(hostname, domain);
  }
  return domain;
}
const rootDomains = new Map<string, string>();

/**
 * A visitor id: a 64-bit keyed hash (HMAC-SHA-256 cut to 64 bits) of user agent, address, site
 * domain and the page's registrable domain under the day's salt. The address itself goes
 * nowhere else; without the salt, which is deleted after a day, the id cannot be reversed.
 */
export function visitorId(salt: Buffer, parts: { userAgent: string; address: string; domain: string; rootDomain: string }): string {
  const digest = createHmac('sha256', salt).update(`${parts.userAgent}\u0000${parts.address}\u0000${parts.domain}\u0000${parts.rootDomain}`).digest();
  return digest.readBigUInt64BE(0).toString();
}

/** Today's visitor id first; yesterday's is computed only if a visit has to be looked up under it. */
export interface VisitorIds extends Iterable<string> {
  readonly current: string;
}

export function visitorIds(salts: { current: Buffer; previous: Buffer | null }, parts: Parameters<typeof visitorId>[1]): VisitorIds {
  const current = visitorId(salts.current, parts);
  let previous: string | null | undefined;
  return {
    current,
    *[Symbol.iterator]() {
      yield current;
      previous ??= salts.previous ? visitorId(salts.previous, parts) : null;
      if (previous !== null) yield previous;
    },
  };
}
