import { lazy, type ReactNode, Suspense, useEffect } from 'react';
import { forgetEarlyReads, readEarly, sitePath } from './api';
import { ConfirmEmailPage } from './pages/ConfirmEmailPage';
import { InvitationPage } from './pages/InvitationPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { PasswordResetPage } from './pages/PasswordResetPage';
import { SetupPage } from './pages/SetupPage';
import { SignInPage } from './pages/SignInPage';
import { SitesPage } from './pages/SitesPage';
import { AddSitePage } from './pages/sites/AddSitePage';
import { matchPath, navigate, useLocation } from './router';
import { SessionProvider, useSession } from './session';
import { Loading } from './ui/Loading';

// The dashboard carries the charts and the map: loaded only when a dashboard is opened.
const loadDashboard = () => import('./pages/dashboard/DashboardPage');
const loadSharedDashboard = () => import('./pages/dashboard/SharedDashboardPage');
const DashboardPage = lazy(loadDashboard);
const SharedDashboardPage = lazy(loadSharedDashboard);
// Settings are opened less often than the dashboard: their own chunk too.
const SiteSettingsPage = lazy(() => import('./pages/settings/SiteSettingsPage').then((m) => ({ default: m.SiteSettingsPage })));
const AccountPage = lazy(() => import('./pages/account/AccountPage').then((m) => ({ default: m.AccountPage })));
const TeamSettingsPage = lazy(() => import('./pages/settings/TeamSettingsPage').then((m) => ({ default: m.TeamSettingsPage })));

type Access = 'public' | 'signed-in' | 'signed-out';

interface Route {
  pattern: string;
  access: Access;
  render(params: Record<string, string>, search: URLSearchParams): ReactNode;
  /** Starts what the page needs first when the app opens on it, so it loads while the session is read. */
  start?(params: Record<string, string>): void;
}

// A chunk that fails to load fails again, visibly, when its page is drawn.
const preload = (load: () => Promise<unknown>) => void load().catch(() => {});

/** A dashboard (or its Explore view) opened first: its chunk and its site load while the session is read. */
function startDashboard(domain: string): void {
  preload(loadDashboard);
  readEarly(sitePath(domain));
}

/** Every page of the app; the first match wins, so fixed paths come before `/:domain`. */
const ROUTES: Route[] = [
  { pattern: '/setup', access: 'public', render: () => <SetupPage /> },
  { pattern: '/login', access: 'signed-out', render: () => <SignInPage /> },
  // The links of the reset and email-change emails (src/management/passwordReset.ts, emailChange.ts).
  { pattern: '/password-reset', access: 'public', render: () => <PasswordResetPage /> },
  { pattern: '/confirm-email', access: 'public', render: () => <ConfirmEmailPage /> },
  // The links that invitation and ownership-transfer emails carry (src/management/invitations.ts acceptUrl).
  { pattern: '/invitations/accept', access: 'public', render: () => <InvitationPage kind="invitations" /> },
  { pattern: '/ownership-transfers/accept', access: 'public', render: () => <InvitationPage kind="ownership-transfers" /> },
  {
    pattern: '/share/:domain',
    access: 'public',
    render: (p) => <SharedDashboardPage domain={p.domain ?? ''} />,
    start: () => preload(loadSharedDashboard),
  },
  {
    pattern: '/share/:domain/explore',
    access: 'public',
    render: (p) => <SharedDashboardPage domain={p.domain ?? ''} view="explore" />,
    start: () => preload(loadSharedDashboard),
  },
  { pattern: '/', access: 'signed-in', render: () => <SitesPage /> },
  { pattern: '/sites', access: 'signed-in', render: () => <SitesPage /> },
  { pattern: '/sites/new', access: 'signed-in', render: () => <AddSitePage /> },
  { pattern: '/settings/account', access: 'signed-in', render: () => <AccountPage /> },
  { pattern: '/settings/team', access: 'signed-in', render: (_p, q) => <TeamSettingsPage section="members" teamParam={q.get('team')} /> },
  { pattern: '/settings/team/:section', access: 'signed-in', render: (p, q) => <TeamSettingsPage section={p.section ?? ''} teamParam={q.get('team')} /> },
  { pattern: '/:domain/settings', access: 'signed-in', render: (p) => <SiteSettingsPage domain={p.domain ?? ''} section="general" /> },
  { pattern: '/:domain/settings/:section', access: 'signed-in', render: (p) => <SiteSettingsPage domain={p.domain ?? ''} section={p.section ?? ''} /> },
  {
    pattern: '/:domain/explore',
    access: 'signed-in',
    render: (p) => <DashboardPage domain={p.domain ?? ''} view="explore" />,
    start: (p) => startDashboard(p.domain ?? ''),
  },
  {
    pattern: '/:domain',
    access: 'signed-in',
    render: (p) => <DashboardPage domain={p.domain ?? ''} />,
    start: (p) => startDashboard(p.domain ?? ''),
  },
];

function matchRoute(path: string): { route: Route; params: Record<string, string> } | undefined {
  for (const route of ROUTES) {
    const params = matchPath(route.pattern, path);
    if (params) return { route, params };
  }
  return undefined;
}

// Otherwise the script, the session, the page's chunk and its first read would load one after another.
const opened = matchRoute(window.location.pathname);
opened?.route.start?.(opened.params);

function Pages() {
  const { session } = useSession();
  const { path, search } = useLocation();
  const match = matchRoute(path);
  const redirect = (() => {
    if (!session || !match) return null;
    if (session.needs_setup && path !== '/setup') return '/setup';
    if (match.route.access === 'signed-in' && !session.user) return `/login?next=${encodeURIComponent(path + (search.size ? `?${search}` : ''))}`;
    if (match.route.access === 'signed-out' && session.user) return search.get('next')?.startsWith('/') ? (search.get('next') as string) : '/';
    return null;
  })();
  useEffect(() => {
    if (!redirect) return;
    forgetEarlyReads();
    navigate(redirect, { replace: true });
  }, [redirect]);
  if (!session || redirect) return <Loading />;
  if (!match) return <NotFoundPage />;
  return <Suspense fallback={<Loading />}>{match.route.render(match.params, search)}</Suspense>;
}

export function App() {
  return (
    <SessionProvider>
      <Pages />
    </SessionProvider>
  );
}
