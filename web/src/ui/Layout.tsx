import { roleIn, TEAM_MANAGERS } from '@contracts/roles';
import type { ReactNode } from 'react';
import { api } from '../api';
import { Link, navigate } from '../router';
import { useSession } from '../session';
import { InvitationsForMe } from './InvitationsForMe';

/** The frame of every signed-in page: the product's name, where you are, and the account menu. */
export function Layout({ children, title, actions }: { children: ReactNode; title?: ReactNode; actions?: ReactNode }) {
  const { session, refresh } = useSession();
  const signOut = async () => {
    await api.post('/app/api/sign-out');
    await refresh();
    navigate('/login');
  };
  return (
    <div className="layout">
      <header className="topbar">
        <Link href="/" className="brand" aria-label="svc analytics — all sites">
          <img src="/favicon.svg" alt="" width="24" height="24" />
          <span>svc</span>
        </Link>
        {title && <div className="topbar-title">{title}</div>}
        <div className="topbar-actions">
          {actions}
          {session?.user && (
            <details className="menu">
              {/* The name shown is the start of the menu's name (WCAG 2.5.3: what is seen is what is said). */}
              <summary>
                {session.user.name}
                <span className="visually-hidden"> — account menu</span>
              </summary>
              <div className="menu-items">
                <Link href="/settings/account">Account</Link>
                {/* Only those who manage a team's people and keys have team settings to open. */}
                {session.teams.some((team) => roleIn(team.role, TEAM_MANAGERS)) && <Link href="/settings/team/members">Team settings</Link>}
                <button type="button" onClick={() => void signOut()}>
                  Sign out
                </button>
              </div>
            </details>
          )}
        </div>
      </header>
      <main className="content">
        <InvitationsForMe />
        {children}
      </main>
    </div>
  );
}
