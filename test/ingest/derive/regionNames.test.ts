import { iso31662 } from 'iso-3166';
import { describe, expect, it } from 'vitest';
import { englishRegionName } from '../../../src/contracts/regionNames.js';
import { citySpelling } from '../../../src/ingest/derive/geo.js';
import { regionName } from '../../../src/ingest/derive/subdivisions.js';

describe('region names in English', () => {
  it.each([
    ['JP-13', 'Tokyo'],
    ['JP-27', 'Osaka'],
    ['IN-MH', 'Maharashtra'],
    ['IN-TN', 'Tamil Nadu'],
    ['BR-SP', 'São Paulo'],
    ['DE-BW', 'Baden-Württemberg'],
    ['FR-IDF', 'Île-de-France'],
    ['CN-BJ', 'Beijing'],
    ['RU-MOW', 'Moscow'],
    ['AE-AJ', 'Ajman'],
    ['US-CA', 'California'],
  ])('%s reads %j', (code, name) => {
    expect(regionName(code)).toBe(name);
  });

  it('leaves no romanisation mark in a romanised name, and keeps Latin-script letters', () => {
    expect(englishRegionName('JP-01', 'Hokkaidô')).toBe('Hokkaido');
    expect(englishRegionName('PL-10', 'Łódzkie')).toBe('Łódzkie');
    for (const country of ['JP', 'IN', 'EG', 'SA', 'IR', 'PK']) {
      for (const { code, name } of iso31662.filter((entry) => entry.code.startsWith(`${country}-`))) {
        expect(englishRegionName(code, name).normalize('NFD'), code).not.toMatch(/\p{M}/u);
      }
    }
  });

  it('has a code of the ISO list for every region it names itself', () => {
    const codes = new Set(iso31662.map((entry) => entry.code));
    for (const code of ['CN-BJ', 'CN-SH', 'RU-SPE', 'KR-11', 'EG-C', 'SA-01', 'AE-DU', 'AE-AZ', 'IL-JM', 'TH-10', 'GR-I']) {
      expect(codes.has(code), code).toBe(true);
      expect(regionName(code), code).not.toBe(iso31662.find((entry) => entry.code === code)?.name);
    }
    expect(regionName('XX-99')).toBe('');
  });
});

describe('city spelling', () => {
  it('spells a city named as its region as the region is spelt', () => {
    expect(citySpelling('Sao Paulo', 'BR-SP')).toBe('São Paulo');
    expect(citySpelling('Tokyo', 'JP-13')).toBe('Tokyo');
  });

  it('leaves other cities, and cities without a region, as the database names them', () => {
    expect(citySpelling('Campinas', 'BR-SP')).toBe('Campinas');
    expect(citySpelling('Sao Paulo', '')).toBe('Sao Paulo');
    expect(citySpelling('', 'BR-SP')).toBe('');
  });
});
