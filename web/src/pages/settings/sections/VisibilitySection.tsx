import { guestList, type InviteOutcome, invitationList, inviteOutcome } from '@contracts/invitations';
import { roleIn, TEAM_MANAGERS } from '@contracts/roles';
import { sharedLinkList } from '@contracts/sharedLinks';
import { useState } from 'react';
import { formatTime } from '../../../format';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { CopyButton } from '../../../ui/CopyButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { InvitationAnswer } from '../../../ui/InvitationAnswer';
import { Section } from '../../../ui/Section';
import { Field, ServerForm } from '../../../ui/ServerForm';
import { useResource } from '../../../ui/useResource';
import type { SiteSectionProps } from '../siteSection';
import { EmbedCode } from './EmbedCode';

/** Who sees the dashboard besides the team: shared links and guests. */
export function VisibilitySection(props: SiteSectionProps) {
  return (
    <>
      <SharedLinks {...props} />
      <Guests {...props} />
    </>
  );
}

/** Read-only links to the dashboard: listed, made (with a password or not) and deleted. */
function SharedLinks({ site, api }: SiteSectionProps) {
  const query = `site_id=${encodeURIComponent(site.domain)}`;
  const links = useResource((signal) => api.get(`/api/v1/sites/shared-links?${query}`, sharedLinkList, signal), [site.domain]);
  const [linkName, setLinkName] = useState('');
  const [linkPassword, setLinkPassword] = useState('');
  return (
    <Section title="Shared links" description="A shared link shows this dashboard read-only to anyone who has it (and its password, when it has one).">
      <ErrorNote error={links.error} />
      {links.data?.shared_links.length === 0 && <p className="muted">No shared links yet: only the team and guests see this dashboard.</p>}
      <ul className="settings-list">
        {links.data?.shared_links.map((link) => (
          <li key={link.name} className="shared-link">
            <div className="grow">
              <strong>{link.name}</strong> {link.password_protected && <span className="badge">password</span>}
              <div className="copy-row">
                <code className="small truncate">{link.url}</code>
                <CopyButton text={link.url} label="Copy link" />
              </div>
              <EmbedCode url={link.url} domain={site.domain} passwordProtected={link.password_protected} />
            </div>
            <ConfirmButton
              label="Delete"
              className="btn btn-small btn-danger"
              title={`Delete the shared link “${link.name}”?`}
              message="Anyone using it loses access at once."
              onConfirm={async () => {
                await api.delete(`/api/v1/sites/shared-links/${encodeURIComponent(link.name)}?${query}`);
                links.reload();
              }}
            />
          </li>
        ))}
      </ul>
      <ServerForm
        submitLabel="Create link"
        className="settings-form inline-form"
        onSubmit={async () => {
          await api.put('/api/v1/sites/shared-links', { site_id: site.domain, name: linkName, ...(linkPassword ? { password: linkPassword } : {}) });
          setLinkName('');
          setLinkPassword('');
          links.reload();
        }}
      >
        <Field id="link-name" label="Name" name="name">
          <input value={linkName} onChange={(event) => setLinkName(event.target.value)} placeholder="Board meeting" />
        </Field>
        <Field id="link-password" label="Password (optional, 8+ characters)" name="password">
          <input type="password" value={linkPassword} onChange={(event) => setLinkPassword(event.target.value)} autoComplete="new-password" />
        </Field>
      </ServerForm>
    </Section>
  );
}

/**
 * People outside the team who see this site, once each: an invited guest is one row with its
 * invitation's expiry (not a second row under pending invitations); managers invite, revoke and
 * remove them (the guest route revokes an open invitation too).
 */
function Guests({ site, role, api }: SiteSectionProps) {
  const managesGuests = roleIn(role, TEAM_MANAGERS);
  const query = `site_id=${encodeURIComponent(site.domain)}`;
  const guests = useResource((signal) => api.get(`/api/v1/sites/guests?${query}&limit=1000`, guestList, signal), [site.domain]);
  const invitations = useResource((signal) => api.get('/api/v1/teams/invitations', invitationList, signal), [site.domain]);
  const pending = new Map(
    (invitations.data?.invitations ?? []).filter((i) => i.site_id === site.domain && i.status === 'pending').map((i) => [i.email, i] as const),
  );
  const reload = () => {
    guests.reload();
    invitations.reload();
  };
  return (
    <Section title="Guests" description="Guests see this site only, not the rest of the team. Viewers see the dashboard; editors can also change its settings.">
      <ErrorNote error={guests.error} />
      {guests.data?.guests.length === 0 && <p className="muted">No guests yet.</p>}
      <ul className="settings-list">
        {guests.data?.guests.map((guest) => {
          const invited = guest.status === 'invited';
          const expires = pending.get(guest.email)?.expires_at;
          return (
            <li key={guest.email}>
              <div className="grow">
                <strong>{guest.email}</strong> <span className="badge">{guest.role}</span> {invited && <span className="badge badge-muted">invited</span>}
                {invited && expires && <div className="muted small">invitation expires {formatTime(expires)}</div>}
              </div>
              {managesGuests && (
                <ConfirmButton
                  label={invited ? 'Revoke' : 'Remove'}
                  className="btn btn-small btn-danger"
                  title={invited ? `Revoke the invitation of ${guest.email}?` : `Remove ${guest.email}?`}
                  message={
                    invited ? 'The link in their invitation stops working.' : 'They lose access to this site, and open invitations for them are revoked.'
                  }
                  onConfirm={async () => {
                    await api.delete(`/api/v1/sites/guests/${encodeURIComponent(guest.email)}?${query}`);
                    reload();
                  }}
                />
              )}
            </li>
          );
        })}
      </ul>
      {!managesGuests && <p className="muted small">The team's owner and admins invite and remove guests.</p>}
      <InviteGuest site={site} api={api} managesGuests={managesGuests} reload={reload} />
    </Section>
  );
}

/** The invitation form (for the team's managers) and what the last invitation did. */
function InviteGuest({ site, api, managesGuests, reload }: Pick<SiteSectionProps, 'site' | 'api'> & { managesGuests: boolean; reload(): void }) {
  const [email, setEmail] = useState('');
  const [guestRole, setGuestRole] = useState('viewer');
  const [invited, setInvited] = useState<InviteOutcome | null>(null);
  return (
    <>
      {managesGuests && (
        <ServerForm
          submitLabel="Invite guest"
          className="settings-form inline-form"
          onSubmit={async () => {
            setInvited(await api.put('/api/v1/sites/guests', { site_id: site.domain, email, role: guestRole }, inviteOutcome));
            setEmail('');
            reload();
          }}
        >
          <Field id="guest-email" label="Email" name="email" codes={['invalid_email']}>
            <input type="email" value={email} onChange={(event) => setEmail(event.target.value)} />
          </Field>
          <Field id="guest-role" label="Role" name="role" codes={['invalid_role']}>
            <select value={guestRole} onChange={(event) => setGuestRole(event.target.value)}>
              <option value="viewer">Viewer</option>
              <option value="editor">Editor</option>
            </select>
          </Field>
        </ServerForm>
      )}
      {invited && <InvitationAnswer answer={invited} who="the guest" />}
    </>
  );
}
