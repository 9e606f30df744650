import { useState } from 'react';
import { api } from '../api';
import { navigate } from '../router';
import { useSession } from '../session';
import { NEW_PASSWORD_HINT } from '../ui/passwordRule';
import { AuthForm, Field } from './AuthForm';

/** The one-time page of a fresh install: the first account and its team. */
export function SetupPage() {
  const { session, refresh } = useSession();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  if (session && !session.needs_setup) {
    navigate(session.user ? '/' : '/login', { replace: true });
    return null;
  }
  return (
    <AuthForm
      title="Welcome"
      lead="Create the first account of this installation. You will own its first team; invite others from Team settings later."
      submitLabel="Create account"
      onSubmit={async () => {
        await api.post('/app/api/setup', { name, email, password });
        await refresh();
        navigate('/', { replace: true });
      }}
    >
      <Field id="setup-name" label="Your name" value={name} onChange={setName} autoComplete="name" />
      <Field id="setup-email" label="Email" type="email" value={email} onChange={setEmail} autoComplete="email" />
      <Field
        id="setup-password"
        label="Password"
        type="password"
        value={password}
        onChange={setPassword}
        autoComplete="new-password"
        hint={NEW_PASSWORD_HINT}
      />
    </AuthForm>
  );
}
