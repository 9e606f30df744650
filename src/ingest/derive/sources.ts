import { HOST_SOURCES, RENAMED_SOURCES, SOURCE_TAG_ALIASES } from './data/sourceAdditions.js';
import { shippedReferrers } from './shippedReferrers.js';

/**
 * Source names: which site a visitor came from (`Google`, `X (Twitter)`, `ChatGPT`), resolved
 * either from the referrer's host or from a `utm_source`/`source`/`ref` tag.
 */

interface SourceLookup {
  /** Host (no `www.`) → source, for entries covering a whole host. */
  byHost: Map<string, string>;
  /** Host → [path prefix, source] pairs, longest prefix first. */
  byHostPath: Map<string, Array<[string, string]>>;
  /** Lower-case tag → source. */
  byTag: Map<string, string>;
}

let lookup: SourceLookup | undefined;

/** The name we show for a source of the shipped list (e.g. `Twitter` → `X (Twitter)`). */
export function canonicalSourceName(shippedName: string): string {
  return RENAMED_SOURCES[shippedName] ?? shippedName;
}

/**
 * Source of a referrer host (lower-case, without `www.`), or undefined when no list knows it.
 * A host matches its own entry or that of any parent domain (`m.facebook.com` → `facebook.com`);
 * entries limited to a path (`google.com/imgres`) win over the whole host.
 */
export function sourceForHost(host: string, path: string): string | undefined {
  const { byHost, byHostPath } = sourceLookup();
  const lowerPath = path.toLowerCase();
  for (let candidate = host; candidate.includes('.'); candidate = candidate.slice(candidate.indexOf('.') + 1)) {
    const withPath = byHostPath.get(candidate)?.find(([prefix]) => lowerPath.startsWith(prefix));
    if (withPath) return withPath[1];
    const source = byHost.get(candidate);
    if (source !== undefined) return source;
  }
  // The shipped list has a few single-label keys (`bsky`, `buffer`); only an exact match counts.
  return host.includes('.') ? undefined : byHost.get(host);
}

/** Canonical source for a tag such as `fb-ads` or `google`; the tag as sent when unknown. */
export function sourceForTag(tag: string): string {
  return sourceLookup().byTag.get(tag.toLowerCase()) ?? tag;
}

function sourceLookup(): SourceLookup {
  lookup ??= buildSourceLookup();
  return lookup;
}

function buildSourceLookup(): SourceLookup {
  const byHost = new Map<string, string>();
  const byHostPath = new Map<string, Array<[string, string]>>();
  const byTag = new Map<string, string>();

  for (const entry of shippedReferrers()) {
    const source = canonicalSourceName(entry.source);
    byTag.set(entry.source.toLowerCase(), source);
    byTag.set(source.toLowerCase(), source);
    if (entry.pathPrefix === '') {
      byHost.set(entry.host, source);
    } else {
      const prefixes = byHostPath.get(entry.host) ?? [];
      prefixes.push([entry.pathPrefix, source]);
      byHostPath.set(entry.host, prefixes);
    }
  }
  for (const prefixes of byHostPath.values()) prefixes.sort((a, b) => b[0].length - a[0].length);

  // Our additions are applied last, so they win over the shipped list.
  for (const [host, source] of Object.entries(HOST_SOURCES)) {
    byHost.set(host, source);
    byTag.set(host, source);
    byTag.set(source.toLowerCase(), source);
  }
  for (const [tag, source] of Object.entries(SOURCE_TAG_ALIASES)) byTag.set(tag, source);

  return { byHost, byHostPath, byTag };
}
