import type { InviteOutcome } from '@contracts/invitations';
import { formatTime } from '../format';
import { CopyButton } from './CopyButton';

/** Whether the link went by email, and what to do when it did not. */
function mailSentence(answer: InviteOutcome, who: string): string {
  switch (answer.mail) {
    case 'sent':
      return `Invitation emailed to ${answer.email}. The link is also here, to send ${who} another way:`;
    case 'failed':
      return `Invitation created for ${answer.email}, but the mail server refused the email: send ${who} this link yourself.`;
    case 'not_set_up':
      return `Invitation created for ${answer.email}. This server does not send email (SMTP_URL is not set): send ${who} this link yourself.`;
    default:
      return `Invitation created for ${answer.email}. Send ${who} this link:`;
  }
}

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
      <p>{mailSentence(answer, who)}</p>
      <p className="muted small">The link expires {formatTime(answer.invitation.expires_at)}.</p>
      <div className="copy-row">
        <code className="small truncate" data-testid="invitation-link">
          {answer.invitation.accept_url}
        </code>
        <CopyButton text={answer.invitation.accept_url} label="Copy link" />
      </div>
    </div>
  );
}
