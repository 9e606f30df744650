import { type MyInvitation, myInvitationList } from '@contracts/invitations';
import { useEffect, useState } from 'react';
import { api } from '../api';
import { useSession } from '../session';

/** Invitations addressed to the signed-in user, to accept or decline without the emailed link. */
export function InvitationsForMe() {
  const { session, refresh } = useSession();
  const [invitations, setInvitations] = useState<MyInvitation[]>([]);
  const [error, setError] = useState<string | null>(null);
  const signedIn = Boolean(session?.user);
  useEffect(() => {
    if (!signedIn) return;
    api
      .get('/app/api/invitations/mine', myInvitationList)
      .then((answer) => setInvitations(answer.invitations))
      .catch(() => setInvitations([]));
  }, [signedIn]);
  const answer = async (invitation: MyInvitation, choice: 'accept' | 'decline') => {
    setError(null);
    try {
      await api.post(`/app/api/invitations/${invitation.id}/${choice}`);
      setInvitations((list) => list.filter((i) => i.id !== invitation.id));
      if (choice === 'accept') await refresh();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };
  if (invitations.length === 0) return null;
  return (
    <div className="invitations-for-me">
      {invitations.map((invitation) => (
        <div key={invitation.id} className="invitation-banner" role="status">
          <span>
            You are invited to {invitation.site ? `the site ${invitation.site} of` : 'join'} <strong>{invitation.team}</strong> as {invitation.role}.
          </span>
          <span className="invitation-actions">
            <button type="button" className="btn btn-primary btn-small" onClick={() => void answer(invitation, 'accept')}>
              Accept
            </button>
            <button type="button" className="btn btn-small" onClick={() => void answer(invitation, 'decline')}>
              Decline
            </button>
          </span>
        </div>
      ))}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
