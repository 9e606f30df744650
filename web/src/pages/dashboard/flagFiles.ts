/**
 * Where each country's flag is served: country-flag-icons' 3:2 SVGs (MIT), each its own small
 * file under /assets (none inlined), keyed by ISO 3166-1 alpha-2 code. This list of names is a
 * chunk of its own, loaded with the first flag shown (places.ts), not with the dashboard.
 */
const files = import.meta.glob<string>('../../../../node_modules/country-flag-icons/3x2/*.svg', {
  query: '?url&no-inline',
  import: 'default',
  eager: true,
});

export const FLAG_FILES: ReadonlyMap<string, string> = new Map(Object.entries(files).map(([path, url]) => [path.slice(-6, -4), url]));
