/**
 * Regions by the names English readers write, as Plausible shows them ("Tokyo", "Maharashtra",
 * "São Paulo"). The ISO 3166-2 list names each subdivision in its country's own language; where
 * that language has another script the name is a romanisation whose marks English leaves out
 * ("Tôkyô", "Mahārāshtra", "‘Ajmān"), and a few of the most visited differ further ("Beijing Shi",
 * "Moskva"). Names in Latin-script languages keep their letters ("São Paulo", "Île-de-France").
 * The server spells a city named as its region by it (src/ingest/derive/geo.ts) and the dashboard
 * names regions by it (web/src/pages/dashboard/places.ts), so the two read alike.
 */

/** Countries whose ISO 3166-2 names are romanised from another script. */
const ROMANISED = new Set(
  'AE AF AM BH BY CN EG ER ET GE GR IL IN IQ IR JO JP KG KH KP KR KW KZ LA LB LK LY MM MN MR NP OM PK PS QA RU SA SD SY TH TJ TW UA YE'.split(' '),
);

/** English names that differ from the romanisation by more than its marks. */
const EXONYMS: Readonly<Record<string, string>> = {
  'CN-BJ': 'Beijing',
  'CN-CQ': 'Chongqing',
  'CN-GD': 'Guangdong',
  'CN-JS': 'Jiangsu',
  'CN-SH': 'Shanghai',
  'CN-TJ': 'Tianjin',
  'CN-ZJ': 'Zhejiang',
  'RU-MOW': 'Moscow',
  'RU-SPE': 'Saint Petersburg',
  'KR-11': 'Seoul',
  'KR-26': 'Busan',
  'EG-C': 'Cairo',
  'SA-01': 'Riyadh',
  'AE-DU': 'Dubai',
  'AE-AZ': 'Abu Dhabi',
  'IL-JM': 'Jerusalem',
  'TH-10': 'Bangkok',
  'GR-I': 'Attica',
};

/** A region's English name, from its ISO 3166-2 code and the name the ISO list gives it. */
export function englishRegionName(code: string, isoName: string): string {
  const exonym = EXONYMS[code];
  if (exonym !== undefined) return exonym;
  if (!ROMANISED.has(code.slice(0, 2))) return isoName;
  return isoName
    .normalize('NFD')
    .replace(/\p{M}|[‘’ʻʼ]/gu, '')
    .normalize('NFC');
}
