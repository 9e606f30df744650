import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveAttribution } from '../../../src/ingest/derive/attribution.js';
import { CHANNELS } from '../../../src/ingest/derive/channel.js';
import { type GeoDatabase, openGeoDatabase } from '../../../src/ingest/derive/geo.js';
import { languageFrom } from '../../../src/ingest/derive/language.js';
import { parsePageUrl } from '../../../src/ingest/derive/pageUrl.js';
import { screenSize } from '../../../src/ingest/derive/screen.js';

// Strings that look enough like URLs to reach the interesting code paths.
const urlish = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc
    .tuple(
      fc.constantFrom('https://', 'http://www.', 'android-app://', '/', '//', 'data:', 'javascript:', ''),
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.constantFrom('', '?utm_source=', '?ref=', '?gclid=1&utm_medium=', '#', '%', '%E0%A4'),
      fc.string({ unit: 'binary', maxLength: 40 }),
    )
    .map((parts) => parts.join('')),
);

let geo: GeoDatabase;
beforeAll(async () => {
  geo = await openGeoDatabase();
});
afterAll(() => geo.close?.());

describe('hostile input never throws', () => {
  it('page URLs and attribution', () => {
    fc.assert(
      fc.property(urlish, fc.boolean(), fc.option(urlish), fc.option(urlish), fc.option(fc.string()), (u, hashMode, referrer, overrideReferrer, utm) => {
        const page = parsePageUrl(u, hashMode);
        if (page !== null) {
          expect(page.hostname).not.toBe('');
          expect(page.pathname).not.toBe('');
        }
        const attribution = deriveAttribution({
          page,
          referrer,
          override: { referrer: overrideReferrer ?? undefined, utm_source: utm ?? undefined, utm_medium: utm ?? undefined },
        });
        expect(CHANNELS).toContain(attribution.channel);
      }),
      { numRuns: 3000 },
    );
  });

  it('Accept-Language headers', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (header) => {
        expect(typeof languageFrom(header)).toBe('string');
      }),
      { numRuns: 3000 },
    );
  });

  it('screen widths', () => {
    fc.assert(
      fc.property(fc.double(), (width) => {
        expect(['', 'Mobile', 'Tablet', 'Laptop', 'Desktop']).toContain(screenSize(width));
      }),
    );
  });

  it('addresses', () => {
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV6(), fc.ipV4Extended(), fc.string({ maxLength: 60 })), (ip) => {
        const location = geo.lookup(ip);
        if (location.countryCode === '') expect(location).toEqual({ countryCode: '', subdivision1Code: '', subdivision2Code: '', city: '' });
        else expect(location.countryCode).toMatch(/^[A-Z]{2}$/);
      }),
      { numRuns: 3000 },
    );
  });
});
