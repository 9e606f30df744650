import { type ReactNode, useEffect, useRef } from 'react';
import { Link } from '../../router';
import { Layout } from '../../ui/Layout';
import { useScrollEdges } from '../../ui/useScrollEdges';
import './settings.css';

export interface SettingsNavItem {
  section: string;
  label: string;
}

/** Settings pages: a side navigation of sections, the lock banner, and the section itself. */
export function SettingsLayout({
  title,
  heading,
  base,
  items,
  current,
  locked,
  notices,
  children,
}: {
  title: ReactNode;
  heading: string;
  base: string;
  items: SettingsNavItem[];
  current: string;
  locked?: { reason: string | null } | null;
  /** Banners shown above every page of these settings (a webhook that looks broken). */
  notices?: ReactNode;
  children: ReactNode;
}) {
  const strip = useRef<HTMLUListElement>(null);
  useScrollEdges(strip);
  // On a phone the sections are a row that scrolls sideways (its cut edges faded): the current one
  // is brought to its middle, by scrolling the row alone (scrollIntoView would scroll the page too).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the current section changes; the link is found in the page
  useEffect(() => {
    const row = strip.current;
    const link = row?.querySelector<HTMLElement>('[aria-current="page"]');
    if (row && link) row.scrollLeft = link.offsetLeft - (row.clientWidth - link.offsetWidth) / 2;
  }, [current]);
  return (
    <Layout title={title}>
      {locked && <LockedBanner reason={locked.reason} />}
      {notices}
      <div className="settings">
        <nav className="settings-nav" aria-label={`${heading} sections`}>
          <h1>{heading}</h1>
          <ul ref={strip} className="scrolls-sideways">
            {items.map((item) => (
              <li key={item.section}>
                <Link href={`${base}/${item.section}`} aria-current={item.section === current ? 'page' : undefined}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="settings-body">{children}</div>
      </div>
    </Layout>
  );
}

/** What a locked team sees on every settings page (src/web/apiSession.ts keeps settings open). */
export function LockedBanner({ reason }: { reason: string | null }) {
  return (
    <div className="banner banner-bad" role="alert">
      <span>
        <strong>This team is locked</strong>
        {reason ? ` (${reason})` : ''}. Dashboards and the API are closed until a team owner settles the account; events are still collected, and team settings,
        members and data export keep working.
      </span>
    </div>
  );
}

export function NoAccess({ message }: { message: string }) {
  return (
    <Layout>
      <div className="card narrow settings-refused">
        <h1>Settings are not available to you</h1>
        <p className="muted">{message}</p>
        <Link href="/">Back to your sites</Link>
      </div>
    </Layout>
  );
}
