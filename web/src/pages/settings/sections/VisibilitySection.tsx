import { useState } from 'react';
import { ConfirmButton, CopyButton, ErrorNote, formatTime, type Invitation, PendingInvitations, Section, ServerForm, useResource } from '../parts';
import type { SiteSectionProps } from '../SiteSettingsPage';

interface SharedLink {
  name: string;
  url: string;
  password_protected: boolean;
}
interface Guest {
  email: string;
  role: string;
  status: 'accepted' | 'invited';
}
interface InviteAnswer {
  status: string;
  invitation: { accept_url: string; expires_at: string } | null;
}

/** Who sees the dashboard besides the team: shared links and guests. */
export function VisibilitySection({ site, api }: SiteSectionProps) {
  const query = `site_id=${encodeURIComponent(site.domain)}`;
  const links = useResource((signal) => api.get<{ shared_links: SharedLink[] }>(`/api/v1/sites/shared-links?${query}`, signal), [site.domain]);
  const guests = useResource((signal) => api.get<{ guests: Guest[] }>(`/api/v1/sites/guests?${query}&limit=1000`, signal), [site.domain]);
  const invitations = useResource((signal) => api.get<{ invitations: Invitation[] }>('/api/v1/teams/invitations', signal), [site.domain]);
  const [linkName, setLinkName] = useState('');
  const [linkPassword, setLinkPassword] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('viewer');
  const [invited, setInvited] = useState<InviteAnswer | null>(null);
  const pending = invitations.data?.invitations.filter((i) => i.site_id === site.domain && i.status === 'pending') ?? [];
  return (
    <>
      <Section title="Shared links" description="A shared link shows this dashboard read-only to anyone who has it (and its password, when it has one).">
        <ErrorNote error={links.error} />
        <ul className="settings-list">
          {links.data?.shared_links.map((link) => (
            <li key={link.name}>
              <div className="grow">
                <strong>{link.name}</strong> {link.password_protected && <span className="badge">password</span>}
                <div className="copy-row">
                  <code className="small truncate">{link.url}</code>
                  <CopyButton text={link.url} label="Copy link" />
                </div>
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
          <div className="field">
            <label htmlFor="link-name">Name</label>
            <input id="link-name" value={linkName} onChange={(event) => setLinkName(event.target.value)} placeholder="Board meeting" />
          </div>
          <div className="field">
            <label htmlFor="link-password">Password (optional, 8+ characters)</label>
            <input
              id="link-password"
              type="password"
              value={linkPassword}
              onChange={(event) => setLinkPassword(event.target.value)}
              autoComplete="new-password"
            />
          </div>
        </ServerForm>
      </Section>
      <Section
        title="Guests"
        description="Guests see this site only, not the rest of the team. Viewers see the dashboard; editors can also change its settings."
      >
        <ErrorNote error={guests.error} />
        <ul className="settings-list">
          {guests.data?.guests.map((guest) => (
            <li key={guest.email}>
              <div>
                <strong>{guest.email}</strong> <span className="badge">{guest.role}</span>{' '}
                {guest.status === 'invited' && <span className="badge badge-muted">invited</span>}
              </div>
              <ConfirmButton
                label="Remove"
                className="btn btn-small btn-danger"
                title={`Remove ${guest.email}?`}
                message="They lose access to this site, and open invitations for them are revoked."
                onConfirm={async () => {
                  await api.delete(`/api/v1/sites/guests/${encodeURIComponent(guest.email)}?${query}`);
                  guests.reload();
                  invitations.reload();
                }}
              />
            </li>
          ))}
        </ul>
        <PendingInvitations
          invitations={pending}
          onRevoked={() => {
            invitations.reload();
            guests.reload();
          }}
        />
        <ServerForm
          submitLabel="Invite guest"
          className="settings-form inline-form"
          onSubmit={async () => {
            setInvited(await api.put<InviteAnswer>('/api/v1/sites/guests', { site_id: site.domain, email, role }));
            setEmail('');
            guests.reload();
            invitations.reload();
          }}
        >
          <div className="field">
            <label htmlFor="guest-email">Email</label>
            <input id="guest-email" type="email" value={email} onChange={(event) => setEmail(event.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="guest-role">Role</label>
            <select id="guest-role" value={role} onChange={(event) => setRole(event.target.value)}>
              <option value="viewer">Viewer</option>
              <option value="editor">Editor</option>
            </select>
          </div>
        </ServerForm>
        {invited?.invitation && (
          <div className="shown-once" role="status">
            <p>Invitation created. Send this link to the guest (it expires {formatTime(invited.invitation.expires_at)}):</p>
            <div className="copy-row">
              <code className="small truncate">{invited.invitation.accept_url}</code>
              <CopyButton text={invited.invitation.accept_url} label="Copy link" />
            </div>
          </div>
        )}
      </Section>
    </>
  );
}
