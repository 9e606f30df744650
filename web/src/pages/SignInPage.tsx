import { useState } from 'react';
import { api } from '../api';
import { navigate, useLocation } from '../router';
import { useSession } from '../session';
import { AuthForm, Field } from './AuthForm';

export function SignInPage() {
  const { refresh } = useSession();
  const { search } = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const next = search.get('next');
  return (
    <AuthForm
      title="Sign in"
      submitLabel="Sign in"
      onSubmit={async () => {
        await api.post('/app/api/sign-in', { email, password });
        await refresh();
        navigate(next?.startsWith('/') && !next.startsWith('//') ? next : '/', { replace: true });
      }}
      foot="Forgot your password? An owner of your team can create your account again, or run ./bin/svc on the server."
    >
      <Field id="signin-email" label="Email" type="email" value={email} onChange={setEmail} autoComplete="username" />
      <Field id="signin-password" label="Password" type="password" value={password} onChange={setPassword} autoComplete="current-password" />
    </AuthForm>
  );
}
