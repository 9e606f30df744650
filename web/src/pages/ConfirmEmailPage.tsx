import { emailChanged } from '@contracts/account';
import { useState } from 'react';
import { api } from '../api';
import { navigate, useLocation } from '../router';
import { useSession } from '../session';
import { AuthForm } from './AuthForm';

/**
 * The page the email-change link opens: one click confirms the new address (a click, not the
 * opening itself, as mail scanners open links too). No session is needed: the link is the proof.
 */
export function ConfirmEmailPage() {
  const { session, refresh } = useSession();
  const { search } = useLocation();
  const token = search.get('token') ?? '';
  const [email, setEmail] = useState<string | null>(null);
  if (email) {
    return (
      <AuthForm
        title="Address confirmed"
        submitLabel={session?.user ? 'Go to your account' : 'Sign in'}
        onSubmit={async () => navigate(session?.user ? '/settings/account' : '/login', { replace: true })}
      >
        <p className="auth-note" role="status">
          Your account now uses {email}; sign in with it from now on.
        </p>
      </AuthForm>
    );
  }
  return (
    <AuthForm
      title="Confirm your new email address"
      lead="Your account moves to the address this link was sent to."
      submitLabel="Confirm the new address"
      onSubmit={async () => {
        const changed = await api.post('/app/api/account/email/confirm', { token }, emailChanged);
        await refresh();
        setEmail(changed.email);
      }}
    >
      {null}
    </AuthForm>
  );
}
