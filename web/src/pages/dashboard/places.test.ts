import { beforeAll, describe, expect, it } from 'vitest';
import { countryName, loadRegionNames, regionCodeOf, regionMatches, regionName } from './places';

const japan = new Intl.DisplayNames(undefined, { type: 'region' }).of('JP');

describe('places as people read them', () => {
  beforeAll(() => loadRegionNames());

  it('names regions in English, with their country', () => {
    expect(regionName('JP-13')).toBe(`Tokyo, ${japan}`);
    expect(regionName('IN-MH')).toMatch(/^Maharashtra, /);
    expect(regionName('BR-SP')).toMatch(/^São Paulo, /);
  });

  it('finds a region by its English name, by the ISO list name, or by its code', () => {
    for (const typed of ['Tokyo', 'tokyo', 'Tôkyô', 'JP-13']) expect(regionCodeOf(typed), typed).toBe('JP-13');
    expect(regionCodeOf('Moscow')).toBe('RU-MOW');
    expect(regionCodeOf('Moskva')).toBe('RU-MOW');
    expect(regionCodeOf('Sao Paulo')).toBe('BR-SP');
    expect(regionCodeOf('Atlantis')).toBeNull();
    expect(regionMatches('JP-13', 'tok')).toBe(true);
    expect(regionMatches('JP-13', 'Tôk')).toBe(true);
    expect(regionMatches('RU-MOW', 'moskva')).toBe(true);
  });

  it('names countries without an emoji flag (Flag.tsx draws it)', () => {
    expect(countryName('JP')).toBe(japan);
    expect(countryName('')).toBe('(unknown)');
  });
});
