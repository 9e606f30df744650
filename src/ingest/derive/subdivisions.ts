import { iso31662 } from 'iso-3166';
import { englishRegionName } from '../../contracts/regionNames.js';
import { SUBDIVISION_ALIASES } from './data/subdivisionAliases.js';

/**
 * ISO 3166-2 code (`DE-BY`) of a region the geo database names in English (`Bavaria`), or ''
 * when no name matches. The ISO list names subdivisions in their own languages (`Bayern`,
 * `Beijing Shi`, `Västra Götalands län`), so names are compared after folding accents, case and
 * punctuation, then once more without administrative words (`Shi`, `län`, `Province`, `Oblast`);
 * our alias table covers English names that differ by more than that.
 */
export function subdivisionCode(countryCode: string, regionName: string, parentCode?: string): string {
  if (countryCode === '' || regionName === '') return '';
  const alias = SUBDIVISION_ALIASES[`${countryCode}:${regionName}`];
  if (alias !== undefined) return alias;

  const names = namesOf(parentCode ?? countryCode);
  if (names === undefined) return '';
  return names.exact.get(foldName(regionName)) ?? names.bare.get(bareName(regionName)) ?? '';
}

let isoNames: Map<string, string> | undefined;

/** A region's English name by its ISO 3166-2 code (src/contracts/regionNames.ts); '' for a code the list does not have. */
export function regionName(code: string): string {
  isoNames ??= new Map(iso31662.map(({ code, name }) => [code, name]));
  const name = isoNames.get(code);
  return name === undefined ? '' : englishRegionName(code, name);
}

interface SubdivisionNames {
  exact: Map<string, string>;
  /** Names without administrative words; a name two subdivisions share after stripping is left out. */
  bare: Map<string, string>;
}

let byParent: Map<string, SubdivisionNames> | undefined;

function namesOf(parent: string): SubdivisionNames | undefined {
  byParent ??= buildNames();
  return byParent.get(parent);
}

function buildNames(): Map<string, SubdivisionNames> {
  const result = new Map<string, SubdivisionNames>();
  const ambiguous = new Set<string>();
  for (const { code, name, parent } of iso31662) {
    let names = result.get(parent);
    if (names === undefined) {
      names = { exact: new Map(), bare: new Map() };
      result.set(parent, names);
    }
    // Bilingual and inverted names (`Trentino-Alto Adige, Trentino-Südtirol`,
    // `Murcia, Región de`) are matched by each of their parts too.
    for (const variant of [name, ...name.split(/\s*[,/]\s*/)]) {
      const exact = foldName(variant);
      if (exact !== '' && !names.exact.has(exact)) names.exact.set(exact, code);
      const bare = bareName(variant);
      const key = `${parent}:${bare}`;
      if (bare === '' || ambiguous.has(key)) continue;
      const existing = names.bare.get(bare);
      if (existing === undefined) names.bare.set(bare, code);
      else if (existing !== code) {
        names.bare.delete(bare);
        ambiguous.add(key);
      }
    }
  }
  return result;
}

/** Lower-case ASCII words: `Île-de-France` → `ile de france`, `Al Ismā'īlīyah` → `al ismailiyah`. */
export function foldName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[đłøæßıœþ]/g, (letter) => LETTER_FOLDS[letter] ?? letter)
    .replace(/['‘’`ʻʼ]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Letters that are not an accented base letter, so NFD leaves them alone. */
const LETTER_FOLDS: Record<string, string> = {
  đ: 'd',
  ł: 'l',
  ø: 'o',
  æ: 'ae',
  ß: 'ss',
  ı: 'i',
  œ: 'oe',
  þ: 'th',
};

/** Words that say what kind of subdivision it is, in the languages the ISO list and DB-IP use. */
const ADMINISTRATIVE_WORDS = new Set([
  'sheng',
  'shi',
  'zizhiqu',
  'zhuangzu',
  'huizu',
  'uygur',
  'sar',
  'province',
  'provincia',
  'region',
  'regione',
  'oblast',
  'kray',
  'krai',
  'respublika',
  'republic',
  'state',
  'of',
  'the',
  'county',
  'governorate',
  'prefecture',
  'department',
  'departamento',
  'municipality',
  'lan',
  'do',
  'si',
  'teukbyeolsi',
  'gwangyeoksi',
  'teukbyeoljachido',
  'voivodeship',
  'district',
  'division',
  'autonomous',
  'okrug',
  'canton',
  'wilayah',
  'persekutuan',
  'federal',
  'territory',
  'metropolitan',
  'capital',
  'city',
]);

function bareName(name: string): string {
  return foldName(name)
    .split(' ')
    .filter((word) => !ADMINISTRATIVE_WORDS.has(word))
    .join(' ');
}
