import { type ReactNode, useRef, useState } from 'react';

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
