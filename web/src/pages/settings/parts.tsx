import { type FormEvent, type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, api } from '../../api';

/** Loads a resource and reloads it after a change, so every change shows without a page reload. */
export function useResource<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[]) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what the load depends on
  useEffect(() => {
    const controller = new AbortController();
    loadRef
      .current(controller.signal)
      .then((value) => {
        setData(value);
        setError(null);
      })
      .catch((failure: unknown) => {
        if (!controller.signal.aborted) setError(failure instanceof Error ? failure.message : String(failure));
      });
    return () => controller.abort();
  }, [...deps, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, error, reload };
}

/** A settings card: a title, one sentence on what it is for, then its content. */
export function Section({ title, description, children, danger }: { title: string; description?: ReactNode; children: ReactNode; danger?: boolean }) {
  return (
    <section className={`card settings-section${danger ? ' danger-zone' : ''}`} aria-label={title}>
      <h2>{title}</h2>
      {description && <p className="muted section-description">{description}</p>}
      {children}
    </section>
  );
}

/**
 * A form that submits to the server and shows the server's own sentence when it refuses; `onSubmit`
 * returns a promise, and the button is busy meanwhile.
 */
export function ServerForm({
  onSubmit,
  children,
  submitLabel,
  className,
}: {
  onSubmit: () => Promise<void>;
  children: ReactNode;
  submitLabel: string;
  className?: string;
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
      setError(failure instanceof ApiError || failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className={className ?? 'settings-form'} onSubmit={(event) => void submit(event)} noValidate>
      {children}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Saving…' : submitLabel}
        </button>
      </div>
    </form>
  );
}

/**
 * A destructive action behind a confirmation dialog; with `typed`, the person must type that text
 * (a site's domain) before the action is allowed.
 */
export function ConfirmButton({
  label,
  title,
  message,
  typed,
  onConfirm,
  className = 'btn btn-danger',
}: {
  label: string;
  title: string;
  message: ReactNode;
  typed?: string;
  onConfirm: () => Promise<void>;
  className?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      dialog.current?.close();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        className={className}
        onClick={() => {
          setText('');
          setError(null);
          dialog.current?.showModal();
        }}
      >
        {label}
      </button>
      <dialog ref={dialog} className="confirm-dialog" aria-label={title}>
        <h2>{title}</h2>
        <div className="muted">{message}</div>
        {typed !== undefined && (
          <div className="field">
            <label htmlFor="confirm-typed">
              Type <strong>{typed}</strong> to confirm
            </label>
            <input id="confirm-typed" value={text} onChange={(event) => setText(event.target.value)} autoComplete="off" />
          </div>
        )}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="form-actions">
          <button type="button" className="btn" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="button" className="btn btn-danger-solid" disabled={busy || (typed !== undefined && text !== typed)} onClick={() => void confirm()}>
            {busy ? 'Working…' : label}
          </button>
        </div>
      </dialog>
    </>
  );
}

/** Copies a text (a key, a secret, a snippet) and says so. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  };
  return (
    <button type="button" className="btn btn-small" onClick={() => void copy()} aria-live="polite">
      {copied ? 'Copied' : label}
    </button>
  );
}

/** A secret shown once: in a box to copy, with the warning that it will not be shown again. */
export function ShownOnce({ label, value }: { label: string; value: string }) {
  return (
    <div className="shown-once" role="status">
      <p>
        <strong>{label}</strong> — copy it now: it will not be shown again.
      </p>
      <div className="copy-row">
        <code className="secret" data-testid="shown-once">
          {value}
        </code>
        <CopyButton text={value} />
      </div>
    </div>
  );
}

export function ErrorNote({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p className="form-error" role="alert">
      {error}
    </p>
  );
}

export const formatTime = (iso: string | number | null | undefined) => (iso == null ? '—' : new Date(iso).toLocaleString());

/** An invitation as `GET /api/v1/teams/invitations` lists it (team members and site guests alike). */
export interface Invitation {
  id: number;
  email: string;
  role: string;
  site_id: string | null;
  status: string;
  expires_at: string;
}

/** Invitations not yet answered, each with its role, expiry and a revoke button. */
export function PendingInvitations({ invitations, onRevoked }: { invitations: Invitation[]; onRevoked(): void }) {
  if (invitations.length === 0) return null;
  return (
    <>
      <h3>Pending invitations</h3>
      <ul className="settings-list">
        {invitations.map((invitation) => (
          <li key={invitation.id}>
            <div>
              {invitation.email} <span className="badge">{invitation.role}</span>
              <div className="muted small">expires {formatTime(invitation.expires_at)}</div>
            </div>
            <ConfirmButton
              label="Revoke"
              className="btn btn-small btn-danger"
              title={`Revoke the invitation of ${invitation.email}?`}
              message="The link in their invitation stops working."
              onConfirm={async () => {
                await api.delete(`/api/v1/teams/invitations/${invitation.id}`);
                onRevoked();
              }}
            />
          </li>
        ))}
      </ul>
    </>
  );
}
