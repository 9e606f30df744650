import { type ReceivedNames, receivedNames } from '@contracts/sites';
import { api } from '../../api';
import { useResource } from '../../ui/useResource';

/**
 * The custom event names and property keys the site received lately (src/web/routes/siteDomain.ts),
 * which the goal and property forms suggest; nothing to suggest when they cannot be read.
 */
export function useReceivedNames(domain: string): ReceivedNames {
  const names = useResource((signal) => api.get(`/app/api/sites/${encodeURIComponent(domain)}/received-names`, receivedNames, signal), [domain]);
  return names.data ?? { event_names: [], property_keys: [] };
}

/** The received names not yet in use, for a <datalist>. */
export const notYetUsed = (received: string[], used: Iterable<string>): string[] => {
  const taken = new Set(used);
  return received.filter((name) => !taken.has(name));
};
