import { BlockList, isIP } from 'node:net';
import { parseCidr } from '../config/config.js';
import type { SiteShields } from '../stores/meta/shields.js';

/** A site's shields, compiled once per cache fill so each event is checked in constant time. */
export interface CompiledShields {
  blocksAddress(ip: string): boolean;
  blocksCountry(countryCode: string): boolean;
  blocksPage(pathname: string): boolean;
  allowsHostname(hostname: string): boolean;
}

/** `*` and `**` both match any run of characters; everything else is literal; the whole value must match. */
export function globToRegExp(pattern: string): RegExp {
  const body = pattern
    .split(/\*+/)
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 'i');
}

export function compileShields(rules: SiteShields): CompiledShields {
  const addresses = new BlockList();
  for (const rule of rules.ipRules) {
    const cidr = parseCidr(rule);
    if (cidr) addresses.addSubnet(cidr.address, cidr.prefix, cidr.family);
  }
  const countries = new Set(rules.countryRules.map((c) => c.toUpperCase()));
  const pages = rules.pageRules.map(globToRegExp);
  const hostnames = rules.hostnameRules.map(globToRegExp);
  return {
    blocksAddress: (ip) => rules.ipRules.length > 0 && isIP(ip) !== 0 && addresses.check(ip, isIP(ip) === 6 ? 'ipv6' : 'ipv4'),
    // An unknown country is ZZ, so operators can block traffic that cannot be located.
    blocksCountry: (code) => countries.size > 0 && countries.has(code || 'ZZ'),
    blocksPage: (pathname) => pages.some((re) => re.test(pathname)),
    allowsHostname: (hostname) => hostnames.length === 0 || hostnames.some((re) => re.test(hostname)),
  };
}
