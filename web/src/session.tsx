import { type SessionState, sessionState } from '@contracts/session';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import { api, readEarly, setCsrfToken, whenSignedOut } from './api';

export type { SessionState, SessionTeam, SessionUser } from '@contracts/session';

interface SessionContextValue {
  session: SessionState | null;
  /** Reads the session again (after sign-in, sign-out, joining a team…). */
  refresh(): Promise<SessionState>;
}

const SESSION = '/app/api/session';
// Asked for as the app's script runs, not after its first render: every page waits for it.
readEarly(SESSION);

const SessionContext = createContext<SessionContextValue>({
  session: null,
  refresh: async () => ({ user: null, csrf_token: null, teams: [], needs_setup: false, mail: false }),
});

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<SessionState | null>(null);
  const refresh = useCallback(async () => {
    const next = await api.get(SESSION, sessionState);
    setCsrfToken(next.csrf_token);
    setSession(next);
    return next;
  }, []);
  useEffect(() => {
    whenSignedOut(() => void refresh());
    void refresh().catch(() => setSession({ user: null, csrf_token: null, teams: [], needs_setup: false, mail: false }));
  }, [refresh]);
  return <SessionContext.Provider value={{ session, refresh }}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  return useContext(SessionContext);
}
