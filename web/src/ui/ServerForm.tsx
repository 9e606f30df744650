import { cloneElement, createContext, type FormEvent, type ReactElement, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from 'react';
import { ApiError } from '../api';

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
 * sentence, shown next to the field) and under the form when it names none.
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
