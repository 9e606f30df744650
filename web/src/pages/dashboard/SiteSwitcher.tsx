import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { navigate } from '../../router';
import { noSiteHolds, sitesMatching, useTeamSites } from '../sites/teamSites';
import { pressedShortcut } from './shortcuts';
import './siteSwitcher.css';

const NO_SITES: never[] = [];
const dashboardOf = (domain: string) => `/${encodeURIComponent(domain)}`;

/**
 * The dashboard's title: the site's domain, which opens a searchable list of the team's sites (as
 * Plausible's site switcher does). Keys 1–9 go to the first nine sites in the sites list's order,
 * shown beside them; arrows move through the list, Enter opens a site, Escape closes it.
 */
export function SiteSwitcher({ domain, teamId }: { domain: string; teamId: number }) {
  const { sites, error } = useTeamSites(teamId);
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [active, setActive] = useState(0);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();
  const all = sites ?? NO_SITES;
  const shown = sitesMatching(all, search);

  // The keys 1–9, by the same rules as the other shortcuts (never while typing or in a dialog).
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      const action = pressedShortcut(event);
      if (action?.kind !== 'site') return;
      const site = all[action.position - 1];
      if (!site || site.domain === domain) return;
      event.preventDefault();
      navigate(dashboardOf(site.domain));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [all, domain]);

  // A click elsewhere closes the list.
  useEffect(() => {
    if (!open) return;
    const onDown = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const go = (target: string) => {
    setOpen(false);
    if (target !== domain) navigate(dashboardOf(target));
  };
  const onListKey = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = shown.length - 1;
    const moves: Record<string, number> = { ArrowDown: Math.min(active + 1, last), ArrowUp: Math.max(active - 1, 0), Home: 0, End: last };
    if (event.key in moves) {
      event.preventDefault();
      setActive(Math.max(0, moves[event.key] ?? 0));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const site = shown[active];
      if (site) go(site.domain);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };

  return (
    <div className="site-switcher" ref={root}>
      <h1>
        <button
          ref={button}
          type="button"
          className="site-switch"
          aria-expanded={open}
          aria-controls={open ? `${id}-panel` : undefined}
          onClick={() => {
            setSearch('');
            setActive(
              Math.max(
                0,
                all.findIndex((site) => site.domain === domain),
              ),
            );
            setOpen(!open);
          }}
        >
          {domain}
          <span className="site-switch-caret" aria-hidden="true">
            ▾
          </span>
          <span className="visually-hidden"> — switch site</span>
        </button>
      </h1>
      {open && (
        <div className="site-switcher-panel" id={`${id}-panel`}>
          <input
            className="input"
            type="search"
            role="combobox"
            aria-label="Search sites"
            aria-expanded="true"
            aria-controls={`${id}-list`}
            aria-activedescendant={shown[active] ? `${id}-site-${active}` : undefined}
            placeholder="Search sites"
            // biome-ignore lint/a11y/noAutofocus: the list opened by the title is searched straight away, as a menu is
            autoFocus
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setActive(0);
            }}
            onKeyDown={onListKey}
          />
          {error && <p className="form-error small">{error}</p>}
          {!sites && !error && <p className="muted small">Loading the sites…</p>}
          <div className="site-switcher-list" id={`${id}-list`} role="listbox" aria-label="Sites">
            {shown.map((site, i) => {
              const place = all.indexOf(site) + 1;
              return (
                // biome-ignore lint/a11y/useKeyWithClickEvents: the search box above takes the keys (arrows, Enter) for the whole list
                <div
                  key={site.domain}
                  tabIndex={-1}
                  id={`${id}-site-${i}`}
                  role="option"
                  aria-selected={i === active}
                  aria-current={site.domain === domain ? 'page' : undefined}
                  className={i === active ? 'active' : undefined}
                  onMouseMove={() => setActive(i)}
                  onClick={() => go(site.domain)}
                >
                  <span className="site-switcher-domain">{site.domain}</span>
                  {site.domain === domain && <span className="muted small">this site</span>}
                  {place <= 9 && <kbd aria-label={`key ${place}`}>{place}</kbd>}
                </div>
              );
            })}
          </div>
          {sites && shown.length === 0 && <p className="muted small">{noSiteHolds(search)}</p>}
        </div>
      )}
    </div>
  );
}
