import type { InviteOutcome } from '@contracts/invitations';
import { formatTime } from '../format';
import { CopyButton } from './CopyButton';

/** The invitation link to send, or, when the address already has that access, a sentence saying so. */
export function InvitationAnswer({ answer, who }: { answer: InviteOutcome; who: string }) {
  if (!answer.invitation) {
    return (
      <p className="muted" role="status">
        {answer.email} already has this access; nothing changed.
      </p>
    );
  }
  return (
    <div className="shown-once" role="status">
      <p>
        Invitation created for {answer.email}. Send {who} this link (it expires {formatTime(answer.invitation.expires_at)}):
      </p>
      <div className="copy-row">
        <code className="small truncate" data-testid="invitation-link">
          {answer.invitation.accept_url}
        </code>
        <CopyButton text={answer.invitation.accept_url} label="Copy link" />
      </div>
    </div>
  );
}
