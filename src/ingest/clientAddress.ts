import { BlockList, isIP } from 'node:net';
import type { Cidr } from '../config/config.js';

export type AddressSource = 'socket' | 'cf-connecting-ip' | 'x-real-ip' | 'forwarded' | 'x-forwarded-for';

export interface ClientAddress {
  address: string;
  source: AddressSource;
  /** Whether the request came through a proxy we believe (and so carried a forwarded address). */
  forwarded: boolean;
}

export function trustedProxyList(cidrs: Cidr[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) list.addSubnet(cidr.address, cidr.prefix, cidr.family);
  return list;
}

/** Strips brackets, ports, quotes and IPv4-mapped IPv6 prefixes; null when not an address. */
export function cleanAddress(raw: string): string | null {
  // The common case, a bare IPv4 address, needs none of the clean-up below.
  if (isIP(raw) === 4) return raw;
  let text = raw.trim().replace(/^"|"$/g, '');
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed?.[1]) text = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(':'));
  text = text.replace(/^::ffff:(\d{1,3}(\.\d{1,3}){3})$/i, '$1');
  return isIP(text) ? text.toLowerCase() : null;
}

// BlockList.check builds a SocketAddress per call; the same few peers ask again and again.
const verdicts = new WeakMap<BlockList, Map<string, boolean>>();
function isTrusted(list: BlockList, address: string): boolean {
  let known = verdicts.get(list);
  if (!known) verdicts.set(list, (known = new Map()));
  let verdict = known.get(address);
  if (verdict === undefined) {
    verdict = list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
    if (known.size >= 10_000) known.clear();
    known.set(address, verdict);
  }
  return verdict;
}

/** The right-most hop that is not one of our proxies is the client; proxies can only prepend lies. */
function fromChain(chain: string[], trusted: BlockList): string | null {
  for (let i = chain.length - 1; i >= 0; i -= 1) {
    const address = cleanAddress(chain[i] ?? '');
    if (address === null) return null;
    if (!isTrusted(trusted, address)) return address;
  }
  return null;
}

function forwardedFor(header: string): string[] {
  return header
    .split(',')
    .map((element) => /(?:^|;)\s*for=("[^"]*"|[^;,\s]*)/i.exec(element)?.[1] ?? '')
    .filter(Boolean);
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/**
 * The address a request came from. Forwarding headers are believed only when the socket peer is
 * a configured trusted proxy; otherwise anyone could pick the address their events count under.
 */
export function resolveClientAddress(socketAddress: string, headers: Record<string, string | string[] | undefined>, trusted: BlockList): ClientAddress {
  const peer = cleanAddress(socketAddress) ?? socketAddress;
  // Not `trusted.rules.length === 0`: that getter renders every rule as text on each call.
  if (!isIP(peer) || !isTrusted(trusted, peer)) return { address: peer, source: 'socket', forwarded: false };
  const single = (name: 'cf-connecting-ip' | 'x-real-ip') => {
    const value = header(headers, name);
    return value ? cleanAddress(value) : null;
  };
  const cf = single('cf-connecting-ip');
  if (cf) return { address: cf, source: 'cf-connecting-ip', forwarded: true };
  const real = single('x-real-ip');
  if (real) return { address: real, source: 'x-real-ip', forwarded: true };
  const forwarded = header(headers, 'forwarded');
  const fromForwarded = forwarded ? fromChain(forwardedFor(forwarded), trusted) : null;
  if (fromForwarded) return { address: fromForwarded, source: 'forwarded', forwarded: true };
  const xff = header(headers, 'x-forwarded-for');
  const fromXff = xff ? fromChain(xff.split(','), trusted) : null;
  if (fromXff) return { address: fromXff, source: 'x-forwarded-for', forwarded: true };
  return { address: peer, source: 'socket', forwarded: false };
}
