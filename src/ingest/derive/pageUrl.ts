export interface PageLocation { hostname: string; pathname: string; query: URLSearchParams }
export function parsePageUrl(u: string, hashMode: boolean): PageLocation | null {
  let url: URL;
  try { url = new URL(u); } catch { return null; }
  if (url.protocol === 'data:') return null;
  const hostname = url.hostname.toLowerCase().replace(/^www\./, '') || '(none)';
  let pathname = url.pathname || '/';
  try { pathname = decodeURIComponent(pathname); } catch { /* keep */ }
  if (hashMode && url.hash) pathname += url.hash;
  return { hostname, pathname: pathname.trimEnd() || '/', query: url.searchParams };
}
