/**
 * The page an event happened on, from the payload's `u` (and `h` for hash-routed sites).
 * Hostname and pathname are what reports group by; the query string is kept only so attribution
 * can read UTM tags, `ref`/`source` and click ids from it — it is never stored as part of the page.
 */
export interface PageLocation {
  hostname: string;
  pathname: string;
  query: URLSearchParams;
}

/** Stands in for the missing origin of a path-only `u` such as `/blog`; never reported. */
const PATH_ONLY_BASE = 'http://path-only.invalid';

/**
 * Null when `u` is not a usable URL: unparsable, a `data:` URL, or a relative reference that is
 * not a path (`foo/bar`). A path-only `u` (`/blog`) is usable and gets hostname `(none)`.
 * Length limits are the caller's job. Never throws.
 */
export function parsePageUrl(u: string, hashMode: boolean): PageLocation | null {
  const parsed = parseUrl(u);
  if (parsed === null) return null;
  const { url, pathOnly } = parsed;
  if (url.protocol === 'data:') return null;

  let pathname = percentDecode(url.pathname).trimEnd() || '/';
  // An empty fragment (`/#`) adds nothing a reader could tell apart from no fragment.
  if (hashMode && url.hash.length > 1) pathname += `#${percentDecode(url.hash.slice(1))}`;

  return {
    hostname: pathOnly ? '(none)' : pageHostname(url.hostname),
    pathname,
    query: url.searchParams,
  };
}

/** Lower-cased (hosts are case-insensitive, so `Example.com` and `example.com` are one site), `www.` removed. */
function pageHostname(host: string): string {
  const name = stripWww(host.trim().toLowerCase());
  return name === '' ? '(none)' : name;
}

export function stripWww(host: string): string {
  return host.startsWith('www.') ? host.slice(4) : host;
}

function parseUrl(u: string): { url: URL; pathOnly: boolean } | null {
  if (typeof u !== 'string') return null;
  const text = u.trim();
  if (text === '') return null;
  try {
    return { url: new URL(text), pathOnly: false };
  } catch {
    // Only a path (`/blog`) or a scheme-relative URL (`//host/blog`) may stand without a scheme.
    if (!text.startsWith('/')) return null;
    try {
      const url = new URL(text, PATH_ONLY_BASE);
      return { url, pathOnly: url.origin === PATH_ONLY_BASE };
    } catch {
      return null;
    }
  }
}

const ESCAPE_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

/**
 * Decodes percent-escapes; a run of escapes that is not valid UTF-8 (`%E0%A4%A`, `%FF`) is kept
 * exactly as written, so a hostile path never throws and never turns into replacement characters.
 */
export function percentDecode(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(ESCAPE_RUN, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}
