import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GEO_ATTRIBUTION_HTML, type GeoDatabase, openGeoDatabase } from '../../../src/ingest/derive/geo.js';

let geo: GeoDatabase;
beforeAll(async () => {
  geo = await openGeoDatabase();
});
afterAll(() => geo.close?.());

describe('openGeoDatabase', () => {
  it.each([
    ['8.8.8.8', { countryCode: 'US', subdivision1Code: 'US-CA', subdivision2Code: '', city: 'Mountain View' }],
    ['81.2.69.142', { countryCode: 'GB', subdivision1Code: 'GB-ENG', subdivision2Code: '', city: 'London' }],
    [' 8.8.8.8 ', { countryCode: 'US', subdivision1Code: 'US-CA', subdivision2Code: '', city: 'Mountain View' }],
    ['::ffff:8.8.8.8', { countryCode: 'US', subdivision1Code: 'US-CA', subdivision2Code: '', city: 'Mountain View' }],
  ])('%s → %o', (ip, location) => {
    expect(geo.lookup(ip)).toEqual(location);
  });

  it('looks IPv6 addresses up in the IPv6 file and maps English region names to ISO codes', () => {
    // DB-IP calls this region "Hesse"; ISO 3166-2 calls it "Hessen".
    expect(geo.lookup('2a00:1450:4001:82a::200e')).toMatchObject({ countryCode: 'DE', subdivision1Code: 'DE-HE' });
    expect(geo.lookup('2001:4860:4860::8888').countryCode).toMatch(/^[A-Z]{2}$/);
  });

  it('spells a city named as its region as the region is spelt', () => {
    // DB-IP writes "Sao Paulo" for both; the region reads "São Paulo" (ISO 3166-2).
    expect(geo.lookup('177.6.0.1')).toMatchObject({ countryCode: 'BR', subdivision1Code: 'BR-SP', city: 'São Paulo' });
  });

  it('drops the neighbourhood DB-IP appends to some city names', () => {
    const berlin = geo.lookup('2a02:8108::1');
    expect(berlin).toMatchObject({ countryCode: 'DE', subdivision1Code: 'DE-BE' });
    expect(berlin.city).toBe('Berlin');
  });

  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '192.168.1.1',
    '172.16.0.1',
    '100.64.0.1',
    '169.254.1.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fc00::1',
    '::',
    '',
    'not an ip',
    '999.1.1.1',
    '1.2.3',
    '8.8.8.8:443',
    '[2001:db8::1]',
    'fe80::1%eth0',
    '::ffff:999.1.1.1',
  ])('gives all empty for %j', (ip) => {
    expect(geo.lookup(ip)).toEqual({ countryCode: '', subdivision1Code: '', subdivision2Code: '', city: '' });
  });

  it('names the missing file when the directory has no database', async () => {
    await expect(openGeoDatabase({ cityDbDir: '/nonexistent' })).rejects.toThrow(/dbip-city-ipv4\.mmdb cannot be read/);
  });

  it('carries the attribution DB-IP requires', () => {
    expect(GEO_ATTRIBUTION_HTML).toBe('<a href="https://db-ip.com">IP Geolocation by DB-IP</a>');
  });
});
