import { type MemberTwoFactorList, memberTwoFactorList } from '@contracts/account';
import {
  type Invitation,
  type InviteOutcome,
  invitationList,
  inviteOutcome,
  type MembershipList,
  membershipList,
  type OpenOwnershipTransfer,
  openOwnershipTransfer,
  transferOutcome,
} from '@contracts/invitations';
import { OWNER } from '@contracts/roles';
import { useState } from 'react';
import { api as appApi, type TeamApi } from '../../../api';
import { formatTime } from '../../../format';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { CopyButton } from '../../../ui/CopyButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { InvitationAnswer } from '../../../ui/InvitationAnswer';
import { PendingInvitations } from '../../../ui/PendingInvitations';
import { Section } from '../../../ui/Section';
import { Field, ServerForm } from '../../../ui/ServerForm';
import { type Resource, useResource } from '../../../ui/useResource';

const INVITABLE = ['admin', 'editor', 'viewer', 'billing'];

/** Members, their invitations, and the ownership transfer. */
export function MembersSection({ api, teamId, role }: { api: TeamApi; teamId: number; role: string }) {
  const members = useResource((signal) => api.get('/api/v1/teams/memberships?limit=1000', membershipList, signal), []);
  const invitations = useResource((signal) => api.get('/api/v1/teams/invitations', invitationList, signal), []);
  const transfer = useResource((signal) => api.get('/api/v1/teams/ownership-transfer', openOwnershipTransfer, signal), []);
  // Only the owner is told who has two-factor sign-in on (src/web/routes/profile.ts).
  const twoFactor = useResource(
    (signal) => (role === OWNER ? appApi.get(`/app/api/teams/${teamId}/members/two-factor`, memberTwoFactorList, signal) : Promise.resolve(null)),
    [role, teamId],
  );
  const pending = invitations.data?.invitations.filter((i) => i.site_id === null && i.status === 'pending') ?? [];
  const reload = () => {
    members.reload();
    invitations.reload();
  };
  return (
    <>
      <Members api={api} teamId={teamId} members={members} pending={pending} reload={reload} twoFactor={role === OWNER ? twoFactor.data : null} />
      <InviteMember api={api} reload={reload} />
      {role === OWNER && <OwnershipTransfer api={api} transfer={transfer} />}
    </>
  );
}

/** The team's members, each with a menu of roles and a way out, and the team's pending invitations. */
function Members({
  api,
  teamId,
  members,
  pending,
  reload,
  twoFactor,
}: {
  api: TeamApi;
  teamId: number;
  members: Resource<MembershipList>;
  pending: Invitation[];
  reload(): void;
  /** Who has two-factor sign-in on: for the owner only, else null. */
  twoFactor: MemberTwoFactorList | null;
}) {
  const hasTwoFactor = (email: string) => twoFactor?.members.find((m) => m.email === email)?.two_factor;
  const [roleError, setRoleError] = useState<string | null>(null);
  return (
    <Section
      title="Members"
      description="Everyone in the team sees all its sites. Owners and admins manage members and keys; editors change site settings; viewers read."
    >
      <ErrorNote error={members.error ?? roleError} />
      <ul className="settings-list">
        {members.data?.memberships.map((member) => (
          <li key={member.email} className="member">
            <div className="grow">
              <strong>{member.email}</strong> {member.role === 'owner' && <span className="badge">owner</span>}{' '}
              {twoFactor &&
                (hasTwoFactor(member.email) ? (
                  <span className="badge badge-good">two-factor on</span>
                ) : (
                  <span className="badge badge-muted">no two-factor</span>
                ))}
            </div>
            {member.role !== 'owner' && (
              <label className="role-select">
                <span className="visually-hidden">Role of {member.email}</span>
                <select
                  value={member.role}
                  onChange={(event) => {
                    setRoleError(null);
                    appApi
                      .post(`/app/api/teams/${teamId}/members/role`, { email: member.email, role: event.target.value })
                      .then(() => members.reload())
                      .catch((failure: Error) => setRoleError(failure.message));
                  }}
                >
                  {INVITABLE.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              </label>
            )}
            {member.role !== 'owner' && (
              <ConfirmButton
                label="Remove"
                className="btn btn-small btn-danger"
                title={`Remove ${member.email} from the team?`}
                message="They lose access to every site of the team."
                onConfirm={async () => {
                  await api.delete(`/api/v1/teams/memberships/${encodeURIComponent(member.email)}`);
                  reload();
                }}
              />
            )}
          </li>
        ))}
      </ul>
      <PendingInvitations api={api} invitations={pending} onRevoked={reload} />
    </Section>
  );
}

/** Invites an address to the team with a role, and says what the invitation did. */
function InviteMember({ api, reload }: { api: TeamApi; reload(): void }) {
  const [email, setEmail] = useState('');
  const [inviteRole, setInviteRole] = useState('viewer');
  const [invited, setInvited] = useState<InviteOutcome | null>(null);
  return (
    <Section
      title="Invite a member"
      description="Inviting an address that already has the role changes nothing; the answer is the same whether or not the address has an account. Change a member's role with the menu beside their address."
    >
      <ServerForm
        submitLabel="Invite"
        className="settings-form inline-form"
        onSubmit={async () => {
          setInvited(await api.put('/api/v1/teams/memberships', { email, role: inviteRole }, inviteOutcome));
          setEmail('');
          reload();
        }}
      >
        <Field id="member-email" label="Email" name="email" codes={['invalid_email']}>
          <input type="email" value={email} onChange={(event) => setEmail(event.target.value)} />
        </Field>
        <Field id="member-role" label="Role" name="role" codes={['invalid_role']}>
          <select value={inviteRole} onChange={(event) => setInviteRole(event.target.value)}>
            {INVITABLE.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </Field>
      </ServerForm>
      {invited && <InvitationAnswer answer={invited} who="them" />}
    </Section>
  );
}

/** The owner's hand-over: the open transfer (cancellable), the link to send, and a new transfer. */
function OwnershipTransfer({ api, transfer }: { api: TeamApi; transfer: Resource<OpenOwnershipTransfer> }) {
  const [newOwner, setNewOwner] = useState('');
  const [transferLink, setTransferLink] = useState<string | null>(null);
  return (
    <Section title="Transfer ownership" danger description="The new owner accepts by a link; you then stay in the team as an admin.">
      {transfer.data?.transfer && (
        <div className="banner banner-warn">
          <span>
            A transfer to {transfer.data.transfer.email} is {transfer.data.transfer.status} until {formatTime(transfer.data.transfer.expires_at)}.
          </span>
          <ConfirmButton
            label="Cancel transfer"
            className="btn btn-small"
            title="Cancel the ownership transfer?"
            message="The link sent to the new owner stops working; you stay the owner."
            onConfirm={async () => {
              await api.delete('/api/v1/teams/ownership-transfer');
              setTransferLink(null);
              transfer.reload();
            }}
          />
        </div>
      )}
      {transferLink && (
        <div className="shown-once" role="status">
          <p>Send this link to the new owner:</p>
          <div className="copy-row">
            <code className="small truncate">{transferLink}</code>
            <CopyButton text={transferLink} label="Copy link" />
          </div>
        </div>
      )}
      <div className="inline-form">
        <div className="field">
          <label htmlFor="new-owner">New owner's email</label>
          <input id="new-owner" type="email" value={newOwner} onChange={(event) => setNewOwner(event.target.value)} />
        </div>
        <ConfirmButton
          label="Transfer ownership"
          title={`Transfer the team to ${newOwner || 'this address'}?`}
          message="They become the owner when they accept; you become an admin."
          onConfirm={async () => {
            const answer = await api.post('/api/v1/teams/ownership-transfer', { email: newOwner }, transferOutcome);
            setTransferLink(answer.accept_url);
            transfer.reload();
          }}
        />
      </div>
    </Section>
  );
}
