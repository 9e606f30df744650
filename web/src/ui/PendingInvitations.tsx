import type { Invitation } from '@contracts/invitations';
import type { TeamApi } from '../api';
import { formatTime } from '../format';
import { ConfirmButton } from './ConfirmButton';

/** Invitations not yet answered, each with its role, expiry and (for those who may) a revoke button. */
export function PendingInvitations({ api, invitations, onRevoked }: { api: TeamApi; invitations: Invitation[]; onRevoked?: () => void }) {
  if (invitations.length === 0) return null;
  return (
    <>
      <h3>Pending invitations</h3>
      <ul className="settings-list">
        {invitations.map((invitation) => (
          <li key={invitation.id}>
            <div>
              {invitation.email} <span className="badge">{invitation.role}</span>
              <div className="muted small">expires {formatTime(invitation.expires_at)}</div>
            </div>
            {onRevoked && (
              <ConfirmButton
                label="Revoke"
                className="btn btn-small btn-danger"
                title={`Revoke the invitation of ${invitation.email}?`}
                message="The link in their invitation stops working."
                onConfirm={async () => {
                  await api.delete(`/api/v1/teams/invitations/${invitation.id}`);
                  onRevoked();
                }}
              />
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
