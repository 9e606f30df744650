const regionNames = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(undefined, { type: 'region' }) : null;
const flag = (code: string) => String.fromCodePoint(...[...code].map((c) => 0x1f1a5 + c.charCodeAt(0)));

/** A visit:country value (ISO 3166-1 alpha-2) as people read it: flag and name in their language. */
export function countryName(code: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return code || '(unknown)';
  try {
    return `${flag(code)} ${regionNames?.of(code) ?? code}`;
  } catch {
    return code;
  }
}
