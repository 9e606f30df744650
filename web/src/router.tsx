import { type AnchorHTMLAttributes, type MouseEvent, useSyncExternalStore } from 'react';

/**
 * A small history router: the URL is the app's state (page, date range, filters…), so every view
 * can be bookmarked and back/forward work. React Router would add 20 KB for what this does.
 */
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};
window.addEventListener('popstate', notify);

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => window.location.pathname + window.location.search;

export interface Location {
  path: string;
  search: URLSearchParams;
}

/** The current path and query string; re-renders on every navigation. */
export function useLocation(): Location {
  const href = useSyncExternalStore(subscribe, snapshot);
  const url = new URL(href, window.location.origin);
  return { path: url.pathname, search: url.searchParams };
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === snapshot()) return;
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  notify();
  if (!options.replace) window.scrollTo(0, 0);
}

/** An <a> that navigates inside the app (a modified click still opens a new tab, as links do). */
export function Link(props: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string; replace?: boolean }) {
  const { replace, onClick, href, ...rest } = props;
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href, { replace });
  };
  return <a href={href} {...rest} onClick={handle} />;
}

/**
 * Matches a path against a pattern such as `/share/:domain` or `/:domain/settings/*`; returns the
 * decoded parameters (the rest of a `*` as `rest`) or null.
 */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const part = want[i] as string;
    if (part === '*') {
      params.rest = have.slice(i).map(decodeURIComponent).join('/');
      return params;
    }
    const value = have[i];
    if (value === undefined) return null;
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(value);
    else if (part !== value) return null;
  }
  return have.length === want.length ? params : null;
}
