import type { ListSource } from './listFiles.js';
import { parseList } from './listFiles.js';

const DOMAIN = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

/**
 * Spam domains of one or more lists, lower-cased. A leading `www.` or `*.` is dropped: a listed
 * domain covers its subdomains anyway.
 */
export function parseSpamDomains(sources: ListSource[]): Set<string> {
  const domains = sources.flatMap((source) =>
    parseList(source, 'a domain name such as spam.example', (entry) => {
      const domain = entry.toLowerCase().replace(/^(?:\*\.|www\.)/, '');
      return DOMAIN.test(domain) ? domain : undefined;
    }),
  );
  return new Set(domains);
}

/** Whether the host or any of its parent domains is listed; case and a trailing dot are ignored. */
export function isListedHost(domains: ReadonlySet<string>, host: string): boolean {
  let candidate = host.toLowerCase();
  if (candidate.endsWith('.')) candidate = candidate.slice(0, -1);
  for (let dot = candidate.indexOf('.'); dot >= 0; dot = candidate.indexOf('.')) {
    if (domains.has(candidate)) return true;
    candidate = candidate.slice(dot + 1);
  }
  return false;
}
