import { describe, expect, it } from 'vitest';
import { languageFrom } from '../../../src/ingest/derive/language.js';

describe('languageFrom', () => {
  it.each([
    [undefined, ''],
    ['', ''],
    ['en-US', 'en-US'],
    ['EN', 'en'],
    ['en-us', 'en-US'],
    ['de-DE,de;q=0.9,en;q=0.8', 'de-DE'],
    ['fr;q=0.5, en-GB;q=0.9', 'en-GB'],
    ['en;q=0.8, de;q=0.8', 'en'],
    ['zh-hant-tw', 'zh-Hant-TW'],
    ['es-419', 'es-419'],
    ['en-GB-oxendict', 'en-GB'],
    ['de-DE-u-co-phonebk', 'de-DE'],
    ['*', ''],
    ['*, fr;q=0.1', 'fr'],
    ['en;q=0, fr;q=0.2', 'fr'],
    ['en;q=0', ''],
    ['en;q=abc', ''],
    ['x-klingon', ''],
    ['i-klingon', ''],
    ['123', ''],
    ['en_US', ''],
    ['<script>', ''],
    [' pt-BR ; q=1 ', 'pt-BR'],
    ['iw', 'he'],
  ])('%j → %j', (header, language) => {
    expect(languageFrom(header)).toBe(language);
  });

  it('reads only the start of an absurdly long header', () => {
    expect(languageFrom(`${'xx;q=0.1,'.repeat(100_000)}en`)).toBe('xx');
  });
});
