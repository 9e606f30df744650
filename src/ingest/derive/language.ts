/**
 * Visitor language from the Accept-Language header: the language range the browser prefers most
 * (highest `q`, the earlier one on a tie), as language[-Script][-REGION] in canonical case
 * (`EN-us` → `en-US`, `zh-hant-tw` → `zh-Hant-TW`). Variants and extensions are dropped, keeping
 * the dimension's values few. `*`, `q=0`, private-use and malformed ranges are skipped; nothing
 * usable gives ''. Never throws.
 */
export function languageFrom(acceptLanguage: string | undefined): string {
  if (!acceptLanguage) return '';
  let best = '';
  let bestQ = 0;
  // Real browsers send a handful of ranges; a longer header is not worth parsing in full.
  for (const range of acceptLanguage.slice(0, MAX_HEADER_LENGTH).split(',', MAX_RANGES)) {
    const [tagPart = '', ...params] = range.split(';');
    const q = quality(params);
    if (q <= bestQ) continue;
    const language = normalisedLanguage(tagPart.trim());
    if (language === '') continue;
    best = language;
    bestQ = q;
  }
  return best;
}

const MAX_HEADER_LENGTH = 1000;
const MAX_RANGES = 32;
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;

/** The `q` weight of a range: 1 when absent, 0 (not acceptable) when malformed. */
function quality(params: string[]): number {
  for (const param of params) {
    const match = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param);
    if (match) return Math.min(Number(match[1]), 1);
    if (/^\s*q\s*=/i.test(param)) return 0;
  }
  return 1;
}

function normalisedLanguage(tag: string): string {
  if (!LANGUAGE_TAG.test(tag)) return '';
  try {
    const locale = new Intl.Locale(tag);
    return [locale.language, locale.script, locale.region].filter(Boolean).join('-');
  } catch {
    return '';
  }
}
