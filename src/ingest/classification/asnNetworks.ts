import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { endianness } from 'node:os';
import { dirname, join } from 'node:path';
import { AddressRanges } from './addressRanges.js';
import { parseIpv6 } from './ipAddress.js';

/** The networks announced by a set of autonomous systems, per address family. */
export interface AsnNetworks {
  v4: AddressRanges;
  v6: AddressRanges;
  /** Where they came from: the filtered cache file, or a scan of the package's CSV files. */
  source: 'cache' | 'package';
  /** Why the cache file could not be written, when it could not (the networks are still complete). */
  cacheWriteError?: string;
}

/**
 * Bump when the cache file layout changes, so old files are never misread.
 * Layout: [v4 count, v6 count] then v4 starts, v4 ends, v6 starts, v6 ends, all host-endian uint32.
 */
const CACHE_FORMAT = 1;
const CACHE_PREFIX = 'datacenter-networks-';

const packageDir = dirname(createRequire(import.meta.url).resolve('@ip-location-db/asn/package.json'));

/**
 * Ranges of the given ASNs from `@ip-location-db/asn`. Scanning the package's 32 MB of CSV is
 * most of loading the lists (docs/benchmarks.md), so with a `cacheDir` the filtered ranges are kept in a small
 * file keyed by the package version and the ASN set: a changed list or an upgraded package gets a
 * new key, and stale files are removed when a new one is written.
 */
export async function loadAsnNetworks(asns: ReadonlySet<number>, cacheDir?: string): Promise<AsnNetworks> {
  const cacheFile = cacheDir === undefined ? undefined : join(cacheDir, `${CACHE_PREFIX}${await cacheKey(asns)}.bin`);
  if (cacheFile !== undefined) {
    const cached = await readCache(cacheFile);
    if (cached !== null) return { ...cached, source: 'cache' };
  }
  const [v4, v6] = await Promise.all([scanIpv4(asns), scanIpv6(asns)]);
  const networks: AsnNetworks = { v4, v6, source: 'package' };
  if (cacheFile !== undefined) {
    try {
      await writeCache(cacheFile, v4, v6);
    } catch (error) {
      // The cache only saves start-up time; a read-only directory must not stop ingestion.
      networks.cacheWriteError = (error as Error).message;
    }
  }
  return networks;
}

async function cacheKey(asns: ReadonlySet<number>): Promise<string> {
  const { version } = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const sorted = [...asns].sort((a, b) => a - b).join(',');
  return createHash('sha256').update(`${CACHE_FORMAT}|${endianness()}|${version}|${sorted}`).digest('hex').slice(0, 24);
}

async function readCache(file: string): Promise<Pick<AsnNetworks, 'v4' | 'v6'> | null> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    return null;
  }
  if (bytes.byteLength < 8 || bytes.byteLength % 4 !== 0) return null;
  // Copy into an aligned buffer: a Buffer's offset inside its ArrayBuffer need not be a multiple of 4.
  const words = new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const v4Count = words[0] ?? 0;
  const v6Count = words[1] ?? 0;
  if (words.length !== 2 + 2 * v4Count + 8 * v6Count) return null;
  let at = 2;
  const take = (length: number) => words.subarray(at, (at += length));
  const v4 = AddressRanges.fromSorted(1, take(v4Count), take(v4Count));
  const v6 = AddressRanges.fromSorted(4, take(4 * v6Count), take(4 * v6Count));
  return { v4, v6 };
}

async function writeCache(file: string, v4: AddressRanges, v6: AddressRanges): Promise<void> {
  const dir = dirname(file);
  await mkdir(dir, { recursive: true });
  const words = new Uint32Array(2 + 2 * v4.starts.length + 2 * v6.starts.length);
  words.set([v4.count, v6.count]);
  let at = 2;
  for (const part of [v4.starts, v4.ends, v6.starts, v6.ends]) {
    words.set(part, at);
    at += part.length;
  }
  // Write then rename, so a concurrent start never reads a half-written file.
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, words);
  await rename(temporary, file);
  for (const name of await readdir(dir)) {
    if (name.startsWith(CACHE_PREFIX) && name.endsWith('.bin') && join(dir, name) !== file) {
      await rm(join(dir, name), { force: true });
    }
  }
}

const COMMA = 44;
const NEWLINE = 10;

/** `asn-ipv4-num.csv` rows are `start,end,asn,organisation` with decimal numbers: parsed straight from the bytes. */
async function scanIpv4(asns: ReadonlySet<number>): Promise<AddressRanges> {
  const file = join(packageDir, 'asn-ipv4-num.csv');
  const bytes = await readFile(file);
  const starts: number[] = [];
  const ends: number[] = [];
  let at = 0;
  while (at < bytes.length) {
    const start = decimalField(bytes, at, file);
    const end = decimalField(bytes, start.next, file);
    const asn = decimalField(bytes, end.next, file);
    if (asns.has(asn.value)) {
      starts.push(start.value);
      ends.push(end.value);
    }
    const lineEnd = bytes.indexOf(NEWLINE, asn.next);
    at = lineEnd < 0 ? bytes.length : lineEnd + 1;
  }
  return AddressRanges.build(1, starts, ends);
}

/** `asn-ipv6.csv` rows are `start,end,asn,organisation` with textual addresses: only matching rows' addresses are parsed. */
async function scanIpv6(asns: ReadonlySet<number>): Promise<AddressRanges> {
  const file = join(packageDir, 'asn-ipv6.csv');
  const bytes = await readFile(file);
  const starts: number[] = [];
  const ends: number[] = [];
  let at = 0;
  while (at < bytes.length) {
    const firstComma = bytes.indexOf(COMMA, at);
    const secondComma = firstComma < 0 ? -1 : bytes.indexOf(COMMA, firstComma + 1);
    if (secondComma < 0) throw malformed(file, at);
    const asn = decimalField(bytes, secondComma + 1, file);
    if (asns.has(asn.value)) {
      const start = parseIpv6(bytes.toString('latin1', at, firstComma));
      const end = parseIpv6(bytes.toString('latin1', firstComma + 1, secondComma));
      if (start === null || end === null) throw malformed(file, at);
      starts.push(...start);
      ends.push(...end);
    }
    const lineEnd = bytes.indexOf(NEWLINE, asn.next);
    at = lineEnd < 0 ? bytes.length : lineEnd + 1;
  }
  return AddressRanges.build(4, starts, ends);
}

/** A run of decimal digits ending in a comma at `at`; `next` is the byte after the comma. */
function decimalField(bytes: Buffer, at: number, file: string): { value: number; next: number } {
  let value = 0;
  let i = at;
  for (; i < bytes.length; i++) {
    const code = bytes[i] ?? 0;
    if (code === COMMA) break;
    if (code < 48 || code > 57) throw malformed(file, at);
    value = value * 10 + (code - 48);
  }
  if (i === at || i === bytes.length) throw malformed(file, at);
  return { value, next: i + 1 };
}

function malformed(file: string, at: number): Error {
  return new Error(`${file}: unexpected content at byte ${at}; is the @ip-location-db/asn package intact?`);
}
