import { cloneElement, createContext, type FormEvent, type ReactElement, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from 'react';
import { ApiError, api, type TeamApi } from '../../api';

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

/** How long "Saved" stays beside a form's button. */
const SAVED_NOTE_MS = 4000;

/** A server refusal as a form shows it: the sentence, and the API field it is about when known. */
interface FormFailure {
  message: string;
  code: string;
}

/**
 * The fields of a ServerForm and the failure of its last submit. Each Field registers the API field
 * it edits, so the server's sentence is shown under the field it names (spec: every refusal is a
 * sentence; issue 14: shown next to the field) and under the form when it names none.
 */
interface FormFields {
  failure: FormFailure | null;
  target: string | null;
  register(name: string, codes: readonly string[]): () => void;
}

const FormFieldsContext = createContext<FormFields | null>(null);

/** The registered field a refusal is about: one whose error codes include it, else one its sentence quotes. */
function fieldOf(failure: FormFailure, fields: Map<string, readonly string[]>): string | null {
  for (const [name, codes] of fields) if (codes.includes(failure.code)) return name;
  for (const name of fields.keys()) if (failure.message.includes(`"${name}"`)) return name;
  return null;
}

/**
 * A form that submits to the server and shows the server's own sentence when it refuses, next to the
 * field it is about; `onSubmit` returns a promise, and the button is busy meanwhile.
 */
export function ServerForm({
  onSubmit,
  children,
  submitLabel,
  className,
  actions,
  savedMessage,
}: {
  onSubmit: () => Promise<void>;
  children: ReactNode;
  submitLabel: string;
  className?: string;
  /** Other buttons or links beside the submit button. */
  actions?: ReactNode;
  /** Said beside the button for a while after a change that shows nowhere else (a saved setting). */
  savedMessage?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => setSaved(false), SAVED_NOTE_MS);
    return () => clearTimeout(timer);
  }, [saved]);
  const [failure, setFailure] = useState<FormFailure | null>(null);
  const fields = useRef(new Map<string, readonly string[]>());
  const form = useRef<HTMLFormElement>(null);
  const register = useCallback((name: string, codes: readonly string[]) => {
    fields.current.set(name, codes);
    return () => {
      fields.current.delete(name);
    };
  }, []);
  const target = failure ? fieldOf(failure, fields.current) : null;
  useEffect(() => {
    if (target) form.current?.querySelector<HTMLElement>(`[data-api-field="${target}"]`)?.focus();
  }, [target]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    setSaved(false);
    try {
      await onSubmit();
      setSaved(true);
    } catch (error) {
      setFailure({
        message: error instanceof Error ? error.message : String(error),
        code: error instanceof ApiError ? error.code : 'error',
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormFieldsContext.Provider value={{ failure, target, register }}>
      <form ref={form} className={className ?? 'settings-form'} onSubmit={(event) => void submit(event)} noValidate>
        {children}
        {failure && target === null && (
          <p className="form-error" role="alert">
            {failure.message}
          </p>
        )}
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Saving…' : submitLabel}
          </button>
          {actions}
          {saved && savedMessage && (
            <span className="form-saved" role="status">
              {savedMessage}
            </span>
          )}
        </div>
      </form>
    </FormFieldsContext.Provider>
  );
}

/** Registers an API field with the enclosing ServerForm; the server's sentence when it is about this field. */
function useFieldError(name: string, codes: readonly string[]): string | null {
  const form = useContext(FormFieldsContext);
  const register = form?.register;
  const codeList = codes.join(' ');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the codes are compared by their text, not the array's identity
  useEffect(() => register?.(name, codes), [register, name, codeList]);
  return form?.failure && form.target === name ? form.failure.message : null;
}

/** The server's sentence about a group of choices (a fieldset of checkboxes), shown under them. */
export function FieldError({ name, codes = [] }: { name: string; codes?: readonly string[] }) {
  const error = useFieldError(name, codes);
  if (!error) return null;
  return (
    <span className="field-error" role="alert">
      {error}
    </span>
  );
}

/**
 * One labelled input of a ServerForm. `name` is the API field it edits; `codes` are the error codes
 * that are always about it (for sentences that quote the value rather than the field's name).
 */
export function Field({
  id,
  label,
  name,
  codes = [],
  hint,
  children,
}: {
  id: string;
  label: ReactNode;
  name: string;
  codes?: readonly string[];
  hint?: ReactNode;
  children: ReactElement<{ id?: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string; 'data-api-field'?: string }>;
}) {
  const error = useFieldError(name, codes);
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, {
        id,
        'data-api-field': name,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': described || undefined,
      })}
      {hint && (
        <span className="field-hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {error && (
        <span className="field-error" id={`${id}-error`} role="alert">
          {error}
        </span>
      )}
    </div>
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
export const formatDay = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });

/** An invitation as `GET /api/v1/teams/invitations` lists it (team members and site guests alike). */
export interface Invitation {
  id: number;
  email: string;
  role: string;
  site_id: string | null;
  status: string;
  expires_at: string;
}

/** Invitations not yet answered, each with its role, expiry and (for those who may) a revoke button. */
export function PendingInvitations({ api, invitations, onRevoked }: { api: TeamApi; invitations: Invitation[]; onRevoked?: () => void }) {
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
            {onRevoked && (
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
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

/** What an ingestion outcome (a drop reason or a classification) means and what the owner can do (src/ingest/outcomeGuide.ts). */
export interface OutcomeGuide {
  label: string;
  meaning: string;
  action: string;
  kind: 'accepted' | 'classified' | 'dropped';
}

/** The server's one guide to ingestion outcomes, for the health panel and the classification switches. */
export function useOutcomeGuide() {
  return useResource((signal) => api.get<{ outcomes: Record<string, OutcomeGuide> }>('/app/api/ingestion-outcomes', signal), []);
}

/** What inviting someone (a team member or a site guest) answers: the same whether or not the address has an account. */
export interface InviteAnswer {
  email: string;
  status: 'invited' | 'accepted';
  invitation: { accept_url: string; expires_at: string } | null;
}

/** The invitation link to send, or, when the address already has that access, a sentence saying so. */
export function InvitationAnswer({ answer, who }: { answer: InviteAnswer; who: string }) {
  if (!answer.invitation) {
    return (
      <p className="muted" role="status">
        {answer.email} already has this access; nothing changed.
      </p>
    );
  }
  return (
    <div className="shown-once" role="status">
      <p>
        Invitation created for {answer.email}. Send {who} this link (it expires {formatTime(answer.invitation.expires_at)}):
      </p>
      <div className="copy-row">
        <code className="small truncate" data-testid="invitation-link">
          {answer.invitation.accept_url}
        </code>
        <CopyButton text={answer.invitation.accept_url} label="Copy link" />
      </div>
    </div>
  );
}
