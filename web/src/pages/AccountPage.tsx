import { useState } from 'react';
import { api } from '../api';
import { useSession } from '../session';
import { Layout } from '../ui/Layout';
import { Field } from './AuthForm';

export function AccountPage() {
  const { session } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const change = async () => {
    setMessage(null);
    try {
      await api.post('/app/api/password', { current_password: current, new_password: next });
      setCurrent('');
      setNext('');
      setMessage({ ok: true, text: 'Password changed. Other browsers signed in as you have been signed out.' });
    } catch (failure) {
      setMessage({ ok: false, text: failure instanceof Error ? failure.message : String(failure) });
    }
  };
  return (
    <Layout title="Account">
      <div className="card account-card">
        <h1>Account</h1>
        <p>
          <strong>{session?.user?.name}</strong> · {session?.user?.email}
        </p>
        <h2>Change password</h2>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void change();
          }}
        >
          <Field id="password-current" label="Current password" type="password" value={current} onChange={setCurrent} autoComplete="current-password" />
          <Field
            id="password-new"
            label="New password"
            type="password"
            value={next}
            onChange={setNext}
            autoComplete="new-password"
            hint="At least 8 characters."
          />
          {message && (
            <p className={message.ok ? 'form-ok' : 'form-error'} role={message.ok ? 'status' : 'alert'}>
              {message.text}
            </p>
          )}
          <button type="submit" className="btn btn-primary">
            Change password
          </button>
        </form>
      </div>
    </Layout>
  );
}
