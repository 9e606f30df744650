import { AddressRanges } from './addressRanges.js';
import { loadAsnNetworks } from './asnNetworks.js';
import type { AddressRange } from './ipAddress.js';
import { parseCidr, parseIpAddress } from './ipAddress.js';
import type { ListSource } from './listFiles.js';
import { parseList } from './listFiles.js';

/** Hosting-provider networks: the listed ASNs' ranges plus the operator's own CIDR blocks. */
export interface DatacenterNetworks {
  v4: AddressRanges;
  v6: AddressRanges;
  asnCount: number;
  source: 'cache' | 'package';
  cacheWriteError?: string;
}

const MAX_ASN = 4_294_967_295;

export function parseAsns(sources: ListSource[]): Set<number> {
  const asns = sources.flatMap((source) =>
    parseList(source, 'an AS number such as 16509 or AS16509', (entry) => {
      const match = /^(?:AS)?(\d{1,10})$/i.exec(entry);
      const asn = match === null ? NaN : Number(match[1]);
      return asn >= 1 && asn <= MAX_ASN ? asn : undefined;
    }),
  );
  return new Set(asns);
}

export function parseCidrs(sources: ListSource[]): AddressRange[] {
  return sources.flatMap((source) =>
    parseList(source, 'an IPv4 or IPv6 network such as 203.0.113.0/24 or 2001:db8::/32', (entry) => parseCidr(entry) ?? undefined),
  );
}

export async function loadDatacenterNetworks(asns: ReadonlySet<number>, cidrs: AddressRange[], cacheDir?: string): Promise<DatacenterNetworks> {
  const networks = await loadAsnNetworks(asns, cacheDir);
  return {
    v4: networks.v4.union(rangesOf(cidrs, 4)),
    v6: networks.v6.union(rangesOf(cidrs, 6)),
    asnCount: asns.size,
    source: networks.source,
    ...(networks.cacheWriteError === undefined ? {} : { cacheWriteError: networks.cacheWriteError }),
  };
}

function rangesOf(cidrs: AddressRange[], family: 4 | 6): AddressRanges {
  const own = cidrs.filter((cidr) => cidr.family === family);
  return AddressRanges.build(
    family === 4 ? 1 : 4,
    own.flatMap((cidr) => [...cidr.start]),
    own.flatMap((cidr) => [...cidr.end]),
  );
}

/** Whether the address lies in a hosting-provider network; malformed addresses never do. */
export function isInNetworks(networks: DatacenterNetworks, ip: string): boolean {
  const address = parseIpAddress(ip);
  if (address === null) return false;
  return address.family === 4 ? networks.v4.contains([address.value]) : networks.v6.contains(address.words);
}
