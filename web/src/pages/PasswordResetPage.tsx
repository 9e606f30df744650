import { passwordResetRequested } from '@contracts/account';
import { useState } from 'react';
import { api } from '../api';
import { Link, navigate, useLocation } from '../router';
import { useSession } from '../session';
import { NEW_PASSWORD_HINT } from '../ui/passwordRule';
import { AuthForm, Field } from './AuthForm';

const backToSignIn = <Link href="/login">Back to sign-in</Link>;

/**
 * "Forgot your password?": asks for the address and mails a link (src/web/routes/passwordReset.ts);
 * the link opens this page again with its token, to choose the new password. A server without
 * SMTP_URL says so, and names the command that prints a link on the server.
 */
export function PasswordResetPage() {
  const { search } = useLocation();
  const token = search.get('token');
  return token ? <ChooseNewPassword token={token} /> : <AskForLink />;
}

function AskForLink() {
  const { session } = useSession();
  const [email, setEmail] = useState('');
  const [answer, setAnswer] = useState<string | null>(null);
  if (session && !session.mail) {
    return (
      <AuthForm title="Forgot your password?" submitLabel="Back to sign-in" onSubmit={async () => navigate('/login')}>
        <div className="auth-note" role="status">
          <p>
            <strong>This server does not send email</strong> (SMTP_URL is not set), so it cannot mail you a link.
          </p>
          <p>Ask whoever runs the server to print a link for you with:</p>
          <code className="auth-command">./bin/svc user reset-password --email you@example.com</code>
          <p>The link works once, within an hour.</p>
        </div>
      </AuthForm>
    );
  }
  if (answer) {
    return (
      <AuthForm title="Check your email" submitLabel="Back to sign-in" onSubmit={async () => navigate('/login')}>
        <p className="auth-note" role="status">
          {answer}
        </p>
      </AuthForm>
    );
  }
  return (
    <AuthForm
      title="Forgot your password?"
      lead="Give the address you sign in with: we email it a link to choose a new password."
      submitLabel="Email me a link"
      onSubmit={async () => setAnswer((await api.post('/app/api/password-reset', { email }, passwordResetRequested)).message)}
      foot={backToSignIn}
    >
      <Field id="reset-email" label="Email" type="email" value={email} onChange={setEmail} autoComplete="username" />
    </AuthForm>
  );
}

function ChooseNewPassword({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [changed, setChanged] = useState(false);
  if (changed) {
    return (
      <AuthForm title="Password changed" submitLabel="Sign in" onSubmit={async () => navigate('/login', { replace: true })}>
        <p className="auth-note" role="status">
          Your new password is set, and every browser that was signed in to your account has been signed out. Sign in with the new password.
        </p>
      </AuthForm>
    );
  }
  return (
    <AuthForm
      title="Choose a new password"
      lead="Choosing it signs your account out everywhere."
      submitLabel="Set the new password"
      onSubmit={async () => {
        await api.post('/app/api/password-reset/complete', { token, password });
        setChanged(true);
      }}
      foot={<Link href="/password-reset">Ask for a new link</Link>}
    >
      <Field
        id="reset-password"
        label="New password"
        type="password"
        value={password}
        onChange={setPassword}
        autoComplete="new-password"
        hint={NEW_PASSWORD_HINT}
      />
    </AuthForm>
  );
}
