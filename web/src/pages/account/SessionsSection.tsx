import { type AccountSession, accountSessionList } from '@contracts/account';
import { useState } from 'react';
import { api } from '../../api';
import { formatTime } from '../../format';
import { ErrorNote } from '../../ui/ErrorNote';
import { Section } from '../../ui/Section';
import { useResource } from '../../ui/useResource';

const deviceName = (session: AccountSession) => [session.browser || 'Unknown browser', session.os || 'unknown system'].join(' on ');

/** Where the account is signed in (browser and system names only), each with its way out. */
export function SessionsSection() {
  const sessions = useResource((signal) => api.get('/app/api/account/sessions', accountSessionList, signal), []);
  const [error, setError] = useState<string | null>(null);
  const act = (path: string) => {
    setError(null);
    api
      .post(path)
      .then(() => sessions.reload())
      .catch((failure: Error) => setError(failure.message));
  };
  const others = sessions.data?.sessions.filter((session) => !session.current) ?? [];
  return (
    <Section
      title="Sessions"
      description="The browsers signed in as you. Only the browser and system names are kept, never an address; a session ends after 14 days unused."
    >
      <ErrorNote error={sessions.error ?? error} />
      <ul className="settings-list" aria-label="Signed-in sessions">
        {sessions.data?.sessions.map((session) => (
          <li key={session.id} className="session" data-session={session.id}>
            <div className="grow">
              <strong>{deviceName(session)}</strong> {session.current && <span className="badge badge-good">this browser</span>}
              <div className="muted small">
                Signed in {formatTime(session.signed_in_at)} · last used {session.current ? 'now' : formatTime(session.last_used_at)}
              </div>
            </div>
            {!session.current && (
              <button
                type="button"
                className="btn btn-small"
                aria-label={`Sign out ${deviceName(session)}`}
                onClick={() => act(`/app/api/account/sessions/${encodeURIComponent(session.id)}/sign-out`)}
              >
                Sign out
              </button>
            )}
          </li>
        ))}
      </ul>
      {others.length > 0 && (
        <div className="form-actions">
          <button type="button" className="btn" onClick={() => act('/app/api/account/sessions/sign-out-others')}>
            Sign out all other sessions
          </button>
        </div>
      )}
    </Section>
  );
}
