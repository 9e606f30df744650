import { signInOutcome } from '@contracts/account';
import { acceptanceOutcome } from '@contracts/invitations';
import { useState } from 'react';
import { api } from '../api';
import { navigate, useLocation } from '../router';
import { useSession } from '../session';
import { AuthForm, Field } from './AuthForm';

/**
 * The page an invitation (or ownership-transfer) link opens. Signed in, one click accepts it as
 * that account; otherwise the person signs in with their password or creates an account, and
 * the same acceptance runs (src/api/routes/management/acceptance.ts), then they are signed in.
 */
export function InvitationPage({ kind }: { kind: 'invitations' | 'ownership-transfers' }) {
  const { session, refresh } = useSession();
  const { search } = useLocation();
  const token = search.get('token') ?? '';
  const [mode, setMode] = useState<'existing' | 'new'>('new');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const what = kind === 'invitations' ? 'invitation' : 'ownership transfer';
  const done = async () => {
    await refresh();
    navigate('/', { replace: true });
  };
  if (!token)
    return (
      <AuthForm
        title="This link is incomplete"
        lead="The link has no token: open it exactly as it was sent to you."
        submitLabel="Go to sign-in"
        onSubmit={async () => navigate('/login')}
      >
        {null}
      </AuthForm>
    );
  if (session?.user) {
    return (
      <AuthForm
        title={`Accept the ${what}`}
        lead={`You are signed in as ${session.user.email}. The ${what} must have been sent to this address.`}
        submitLabel={`Accept the ${what}`}
        onSubmit={async () => {
          await api.post('/app/api/invitations/accept-link', { token, kind });
          await done();
        }}
      >
        {null}
      </AuthForm>
    );
  }
  return (
    <AuthForm
      title={`Accept the ${what}`}
      lead={mode === 'new' ? 'Create your account to join: your name and a password.' : 'Give the password of the account the link was sent to.'}
      submitLabel={mode === 'new' ? 'Create account and join' : 'Sign in and join'}
      onSubmit={async () => {
        const accepted = await api.post(`/api/${kind}/accept`, mode === 'new' ? { token, name, password } : { token, password }, acceptanceOutcome);
        const signedIn = await api.post('/app/api/sign-in', { email: accepted.email, password }, signInOutcome);
        // Accepted; an account with two-factor sign-in on finishes signing in on the sign-in page, with its code.
        if ('challenge' in signedIn) navigate(`/login?next=/`, { replace: true });
        else await done();
      }}
      foot={
        <button type="button" className="link-button" onClick={() => setMode(mode === 'new' ? 'existing' : 'new')}>
          {mode === 'new' ? 'I already have an account' : 'I am new here'}
        </button>
      }
    >
      {mode === 'new' && <Field id="invite-name" label="Your name" value={name} onChange={setName} autoComplete="name" />}
      <Field
        id="invite-password"
        label="Password"
        type="password"
        value={password}
        onChange={setPassword}
        autoComplete={mode === 'new' ? 'new-password' : 'current-password'}
      />
    </AuthForm>
  );
}
