import { type FormEvent, type ReactNode, useState } from 'react';
import './auth.css';

/** The frame and behaviour of every sign-in-like page: a card, fields, one button, the server's sentence on failure. */
export function AuthForm({
  title,
  lead,
  submitLabel,
  onSubmit,
  children,
  foot,
}: {
  title: string;
  lead?: ReactNode;
  submitLabel: string;
  onSubmit: () => Promise<void>;
  children: ReactNode;
  foot?: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onSubmit();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="auth">
      <div className="card auth-card">
        <div className="auth-brand">
          <img src="/favicon.svg" alt="" width="28" height="28" />
          svc analytics
        </div>
        <h1>{title}</h1>
        {lead && <p className="lead">{lead}</p>}
        <form onSubmit={(event) => void submit(event)}>
          {children}
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'One moment…' : submitLabel}
          </button>
        </form>
        {foot && <div className="auth-foot">{foot}</div>}
      </div>
    </main>
  );
}

export function Field({
  id,
  label,
  type = 'text',
  value,
  onChange,
  autoComplete,
  hint,
  inputMode,
  autoFocus,
}: {
  id: string;
  label: string;
  type?: string;
  value: string;
  onChange(value: string): void;
  autoComplete?: string;
  hint?: string;
  inputMode?: 'numeric' | 'text';
  autoFocus?: boolean;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        autoComplete={autoComplete}
        inputMode={inputMode}
        // biome-ignore lint/a11y/noAutofocus: the code field is the one thing this step asks for, right after the password
        autoFocus={autoFocus}
        required
      />
      {hint && <span className="field-hint">{hint}</span>}
    </div>
  );
}
