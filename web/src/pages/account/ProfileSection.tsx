import { type AccountState, emailChangeRequested } from '@contracts/account';
import { useState } from 'react';
import { api } from '../../api';
import { useSession } from '../../session';
import { Section } from '../../ui/Section';
import { Field, ServerForm } from '../../ui/ServerForm';

/** The name others see, and the address the account signs in with (moved only through a link sent to the new one). */
export function ProfileSection({ account, reload }: { account: AccountState; reload(): void }) {
  const { session, refresh } = useSession();
  const [name, setName] = useState(account.name);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  return (
    <>
      <Section title="Name">
        <ServerForm
          submitLabel="Save name"
          savedMessage="Saved."
          className="settings-form inline-form"
          onSubmit={async () => {
            await api.post('/app/api/account/name', { name });
            await refresh();
            reload();
          }}
        >
          <Field id="account-name" label="Name" name="name" codes={['invalid_name']}>
            <input value={name} onChange={(event) => setName(event.target.value)} autoComplete="name" />
          </Field>
        </ServerForm>
      </Section>
      <Section
        title="Email address"
        description={
          <>
            You sign in with <strong>{account.email}</strong>. A new address is used once you open the link we send to it; the current one is told.
          </>
        }
      >
        {account.pending_email && (
          <p className="banner banner-warn" role="status">
            Waiting for {account.pending_email} to be confirmed: open the link sent there (it works for a day).
          </p>
        )}
        {session?.mail === false ? (
          <p className="muted">
            This server does not send email (SMTP_URL is not set), so a new address cannot be confirmed. Whoever runs the server can set SMTP_URL and restart
            it.
          </p>
        ) : (
          <ServerForm
            submitLabel="Send confirmation link"
            onSubmit={async () => {
              await api.post('/app/api/account/email', { email, password }, emailChangeRequested);
              setEmail('');
              setPassword('');
              reload();
            }}
          >
            <Field id="account-email" label="New email address" name="email" codes={['invalid_email', 'email_taken', 'same_email']}>
              <input type="email" value={email} onChange={(event) => setEmail(event.target.value)} autoComplete="email" />
            </Field>
            <Field id="account-email-password" label="Your password, to confirm" name="password" codes={['invalid_credentials']}>
              <input type="password" value={password} onChange={(event) => setPassword(event.target.value)} autoComplete="current-password" />
            </Field>
          </ServerForm>
        )}
      </Section>
    </>
  );
}
