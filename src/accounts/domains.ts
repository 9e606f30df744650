const withoutScheme = (input: string) =>
  input
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '');

/**
 * Site domains are stored normalised: lower case, no scheme, no path or port, no leading `www.`.
 * Returns null for anything that is not a plausible host name.
 */
export function normaliseDomain(input: string): string | null {
  let text = withoutScheme(input);
  text = text.replace(/[/?#].*$/, '');
  text = text.replace(/:\d+$/, '');
  text = text.replace(/\.$/, '');
  text = text.replace(/^www\./, '');
  if (text.length === 0 || text.length > 253) return null;
  const labels = text.split('.');
  const valid = labels.every((label) => /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/.test(label));
  return valid ? text : null;
}

/**
 * Why an address given for a new or renamed site is refused, or null. A site is a whole domain:
 * an address with a path or a query (example.com/shop) would be cut back to its domain, so it is
 * refused rather than trimmed silently; a scheme, `www.` or a trailing slash are only spelling.
 */
export function siteAddressProblem(input: string): string | null {
  const rest = /[/?#].*$/.exec(withoutScheme(input))?.[0] ?? '';
  if (rest === '' || rest === '/') return null;
  const domain = normaliseDomain(input);
  const instead = domain ? `give ${domain} alone` : 'give its domain alone, such as example.com';
  return `"${input.trim()}" has a path or query (${rest}): a site is a whole domain, so ${instead}. Pages of one part of a site can be told apart with a page filter on the dashboard.`;
}
