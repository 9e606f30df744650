import { secondFactorOutcome, signInOutcome } from '@contracts/account';
import { useState } from 'react';
import { api } from '../api';
import { Link, navigate, useLocation } from '../router';
import { useSession } from '../session';
import { AuthForm, Field } from './AuthForm';

/**
 * Sign-in: the password, then, for an account with two-factor sign-in on, a code from the
 * authenticator or a recovery code (src/web/routes/twoFactor.ts).
 */
export function SignInPage() {
  const { refresh } = useSession();
  const { search } = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [challenge, setChallenge] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const next = search.get('next');
  const done = async (recoveryCodesLeft: number | null = null) => {
    await refresh();
    const target = next?.startsWith('/') && !next.startsWith('//') ? next : '/';
    // Signed in with a recovery code: the Account page says how many are left and how to make new ones.
    navigate(recoveryCodesLeft === null ? target : `/settings/account?recovery_codes_left=${recoveryCodesLeft}`, { replace: true });
  };
  if (challenge) {
    return (
      <AuthForm
        title="Two-factor sign-in"
        lead="Type the six-digit code your authenticator app shows for svc analytics. Lost your phone? Type one of your recovery codes instead."
        submitLabel="Verify"
        onSubmit={async () => {
          const outcome = await api.post('/app/api/sign-in/two-factor', { challenge, code }, secondFactorOutcome);
          await done(outcome.recovery_codes_left);
        }}
        foot={
          <button type="button" className="link-button" onClick={() => setChallenge(null)}>
            Start again with your password
          </button>
        }
      >
        <Field id="signin-code" label="Authentication code" value={code} onChange={setCode} autoComplete="one-time-code" inputMode="numeric" autoFocus />
      </AuthForm>
    );
  }
  return (
    <AuthForm
      title="Sign in"
      submitLabel="Sign in"
      onSubmit={async () => {
        const outcome = await api.post('/app/api/sign-in', { email, password }, signInOutcome);
        if ('challenge' in outcome) {
          setCode('');
          setChallenge(outcome.challenge);
        } else await done();
      }}
      foot={<Link href="/password-reset">Forgot your password?</Link>}
    >
      <Field id="signin-email" label="Email" type="email" value={email} onChange={setEmail} autoComplete="username" />
      <Field id="signin-password" label="Password" type="password" value={password} onChange={setPassword} autoComplete="current-password" />
    </AuthForm>
  );
}
