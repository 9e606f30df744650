import { iso31662 } from 'iso-3166';
import { describe, expect, it } from 'vitest';
import { SUBDIVISION_ALIASES } from '../../../src/ingest/derive/data/subdivisionAliases.js';
import { foldName, subdivisionCode } from '../../../src/ingest/derive/subdivisions.js';

describe('subdivisionCode', () => {
  it.each([
    ['US', 'California', 'US-CA'],
    ['GB', 'England', 'GB-ENG'],
    ['GB', 'Scotland', 'GB-SCT'],
    ['GB', 'Wales', 'GB-WLS'],
    ['GB', 'Northern Ireland', 'GB-NIR'],
    ['DE', 'Bavaria', 'DE-BY'],
    ['DE', 'Hesse', 'DE-HE'],
    ['DE', 'North Rhine-Westphalia', 'DE-NW'],
    ['DE', 'Baden-Wurttemberg', 'DE-BW'],
    ['DE', 'State of Berlin', 'DE-BE'],
    ['FR', 'Ile-de-France', 'FR-IDF'],
    ['CN', 'Beijing', 'CN-BJ'],
    ['KR', 'Seoul', 'KR-11'],
    ['ES', 'Madrid', 'ES-MD'],
    ['NO', 'Trondelag', 'NO-50'],
    ['MX', 'Mexico City', 'MX-CMX'],
    ['UA', 'Kyiv City', 'UA-30'],
    ['JP', 'Tokyo', 'JP-13'],
    ['XX', 'Nowhere', ''],
    ['US', 'Atlantis', ''],
    ['US', '', ''],
    ['', 'California', ''],
  ])('%s / %s → %j', (country, region, code) => {
    expect(subdivisionCode(country, region)).toBe(code);
  });

  it('every alias names an existing ISO 3166-2 code of its own country', () => {
    const codes = new Set(iso31662.map((entry) => entry.code));
    for (const [key, code] of Object.entries(SUBDIVISION_ALIASES)) {
      expect(codes.has(code), `${key} → ${code}`).toBe(true);
      expect(code.slice(0, 2), key).toBe(key.slice(0, 2));
    }
  });

  it('folds accents, punctuation and letters NFD leaves alone', () => {
    expect(foldName('Provence-Alpes-Côte-d’Azur')).toBe('provence alpes cote dazur');
    expect(foldName('Łódzkie')).toBe('lodzkie');
    expect(foldName('Trøndelag')).toBe('trondelag');
  });
});
