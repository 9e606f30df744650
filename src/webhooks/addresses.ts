import { BlockList, isIP } from 'node:net';

/**
 * Which network addresses a webhook may connect to: the guard against server-side request
 * forgery. Checked against the address actually connected to, after resolution.
 */

function blockList(ranges: ReadonlyArray<[string, number, 'ipv4' | 'ipv6']>): BlockList {
  const list = new BlockList();
  for (const [network, prefix, family] of ranges) list.addSubnet(network, prefix, family);
  return list;
}

/** Never a receiver, whatever the operator allows: unspecified, multicast, broadcast, cloud metadata. */
const NEVER = blockList([
  ['0.0.0.0', 8, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['169.254.169.254', 32, 'ipv4'], // AWS, GCP, Azure, OpenStack instance metadata
  ['100.100.100.200', 32, 'ipv4'], // Alibaba Cloud metadata
  ['::', 128, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
  ['fd00:ec2::254', 128, 'ipv6'], // AWS metadata over IPv6
]);

const LOOPBACK = blockList([
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
]);

/** Private, shared, link-local, documentation and benchmark ranges: internal networks. */
const PRIVATE = blockList([
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['100::', 64, 'ipv6'],
  ['2001:db8::', 32, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
]);

/** Host names a development URL may use to reach this machine (spec: "http only for localhost"). */
export const DEVELOPMENT_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

export function isDevelopmentHost(hostname: string): boolean {
  return (DEVELOPMENT_HOSTS as readonly string[]).includes(hostname.toLowerCase());
}

/** An IPv4 address carried inside an IPv6 one (mapped, NAT64, 6to4), which must be judged as IPv4. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower) ?? /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4})(?::|$)/.exec(lower);
  if (!hex) return undefined;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

export interface AddressRules {
  /** The URL named localhost, 127.0.0.1 or [::1] literally: loopback is the intended target. */
  loopbackAllowed: boolean;
  /** WEBHOOK_ALLOW_PRIVATE: the operator runs receivers on internal networks. */
  privateAllowed: boolean;
}

/** Null when the address may be connected to, else a sentence saying why not. */
export function refusedAddress(address: string, rules: AddressRules): string | null {
  const family = isIP(address);
  if (family === 0) return `"${address}" is not an IP address.`;
  const inner = family === 6 ? embeddedIpv4(address) : undefined;
  if (inner !== undefined) return refusedAddress(inner, rules);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (NEVER.check(address, type)) return `${address} is a reserved or cloud-metadata address.`;
  if (LOOPBACK.check(address, type)) {
    return rules.loopbackAllowed || rules.privateAllowed
      ? null
      : `${address} is a loopback address; only URLs naming localhost, 127.0.0.1 or [::1] may reach it.`;
  }
  if (PRIVATE.check(address, type) && !rules.privateAllowed) {
    return `${address} is a private or link-local address; the operator allows those only with WEBHOOK_ALLOW_PRIVATE=true.`;
  }
  return null;
}
