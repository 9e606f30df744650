import { type EmailSettings, type EmailTopic, emailSettings } from '@contracts/emailReports';
import { useState } from 'react';
import { api } from '../../../api';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { Field, ServerForm } from '../../../ui/ServerForm';
import { type Resource, useResource } from '../../../ui/useResource';

/** What Site settings › Email reports and › Traffic notices read: the lists, the thresholds, and whether mail is set up. */
export function useEmailSettings(domain: string): Resource<EmailSettings> {
  return useResource((signal) => api.get(`/app/api/sites/${encodeURIComponent(domain)}/email-settings`, emailSettings, signal), [domain]);
}

/** Said at the top of both sections while SMTP_URL is unset: nothing is sent, and who can change that and how. */
export function MailNotSetUp({ what }: { what: string }) {
  return (
    <div className="banner banner-warn" role="status">
      <div>
        <strong>Mail is not set up on this server, so no {what} is sent.</strong>{' '}
        <span>
          Whoever runs the server sets <code>SMTP_URL</code> (for example <code>smtp://user:password@mail.example.com:587</code>) and restarts it. The addresses
          below are kept meanwhile.
        </span>
      </div>
    </div>
  );
}

/** One list of addresses (a report's or a notice's): each with Remove, and a form to add one. */
export function RecipientList({ domain, topic, settings, empty }: { domain: string; topic: EmailTopic; settings: Resource<EmailSettings>; empty: string }) {
  const [email, setEmail] = useState('');
  const path = `/app/api/sites/${encodeURIComponent(domain)}/email-recipients`;
  const recipients = settings.data?.recipients.filter((r) => r.topic === topic) ?? [];
  return (
    <>
      {settings.data && recipients.length === 0 && <p className="muted small">{empty}</p>}
      <ul className="settings-list" aria-label="Recipients">
        {recipients.map((recipient) => (
          <li key={recipient.email}>
            <span className="truncate">{recipient.email}</span>
            <ConfirmButton
              label="Remove"
              className="btn btn-small btn-danger"
              title={`Stop sending to ${recipient.email}?`}
              message="This address gets nothing more from this list; you can add it again later."
              onConfirm={async () => {
                await api.delete(`${path}?${new URLSearchParams({ topic, email: recipient.email })}`);
                settings.reload();
              }}
            />
          </li>
        ))}
      </ul>
      <ServerForm
        submitLabel="Add"
        className="settings-form inline-form"
        onSubmit={async () => {
          await api.put(path, { topic, email });
          setEmail('');
          settings.reload();
        }}
      >
        <Field id={`recipient-${topic}`} label="Email address" name="email" codes={['invalid_email', 'too_many_recipients']}>
          <input type="email" value={email} onChange={(event) => setEmail(event.target.value)} placeholder="name@example.com" autoComplete="off" />
        </Field>
      </ServerForm>
    </>
  );
}
