/**
 * Site domains are stored normalised: lower case, no scheme, no path or port, no leading `www.`.
 * Returns null for anything that is not a plausible host name.
 */
export function normaliseDomain(input: string): string | null {
  let text = input.trim().toLowerCase();
  text = text.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  text = text.replace(/[/?#].*$/, '');
  text = text.replace(/:\d+$/, '');
  text = text.replace(/\.$/, '');
  text = text.replace(/^www\./, '');
  if (text.length === 0 || text.length > 253) return null;
  const labels = text.split('.');
  const valid = labels.every((label) => /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/.test(label));
  return valid ? text : null;
}
