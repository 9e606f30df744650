import { type Annotation, annotation as annotationSchema, MAX_ANNOTATION_LENGTH } from '@contracts/annotations';
import { useRef, useState } from 'react';
import { api } from '../../../api';
import { annotationDays } from './annotations';

type Draft = { id: number | null; date: string; end_date: string; note: string };
const blank = (today: string): Draft => ({ id: null, date: today, end_date: '', note: '' });

/** The form adding a note or changing one: its day, an optional last day, and what it says. */
function AnnotationForm({ draft, setDraft, save, busy }: { draft: Draft; setDraft(draft: Draft): void; save(): void; busy: boolean }) {
  return (
    <form
      className="annotation-form"
      aria-label={draft.id === null ? 'Add an annotation' : 'Change the annotation'}
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <label>
        Day <input type="date" required value={draft.date} onChange={(event) => setDraft({ ...draft, date: event.target.value })} />
      </label>
      <label>
        Until (optional){' '}
        <input type="date" min={draft.date} value={draft.end_date} onChange={(event) => setDraft({ ...draft, end_date: event.target.value })} />
      </label>
      <label className="annotation-note">
        Note{' '}
        <input
          type="text"
          required
          maxLength={MAX_ANNOTATION_LENGTH}
          value={draft.note}
          placeholder="Launched the new pricing page"
          onChange={(event) => setDraft({ ...draft, note: event.target.value })}
        />
      </label>
      <button type="submit" className="btn btn-small btn-primary" disabled={busy}>
        {draft.id === null ? 'Add' : 'Save'}
      </button>
    </form>
  );
}

/**
 * The site's notes for its editors: add one (a day, or a span of days), change or delete one. The
 * server checks the role and the days again (src/management/annotations.ts).
 */
export function AnnotationsDialog({ path, annotations, today, changed }: { path: string; annotations: Annotation[]; today: string; changed(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [draft, setDraft] = useState<Draft>(blank(today));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      setDraft(blank(today));
      changed();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  const save = () =>
    run(() => {
      const body = { date: draft.date, end_date: draft.end_date || null, note: draft.note };
      return draft.id === null ? api.post(path, body, annotationSchema) : api.put(`${path}/${draft.id}`, body, annotationSchema);
    });
  return (
    <>
      <button type="button" className="btn btn-small" onClick={() => dialog.current?.showModal()}>
        Annotations
      </button>
      <dialog ref={dialog} className="annotations-dialog" aria-label="Annotations">
        <h2>Annotations</h2>
        <p className="muted small">Notes the graph marks on their days, such as a release or a campaign. Everyone who sees the dashboard sees them.</p>
        <AnnotationForm draft={draft} setDraft={setDraft} save={save} busy={busy} />
        {error && <p className="form-error small">{error}</p>}
        <ul className="annotation-list">
          {annotations.length === 0 && <li className="muted small">No annotations yet.</li>}
          {[...annotations].reverse().map((a) => (
            <li key={a.id} data-annotation={a.id}>
              <span className="muted small">{annotationDays(a)}</span>
              <span className="annotation-text">{a.note}</span>
              <button type="button" className="btn btn-small" onClick={() => setDraft({ id: a.id, date: a.date, end_date: a.end_date ?? '', note: a.note })}>
                Edit
              </button>
              <button
                type="button"
                className="btn btn-small btn-danger"
                aria-label={`Delete ${a.note}`}
                onClick={() => run(() => api.delete(`${path}/${a.id}`))}
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={() => dialog.current?.close()}>
            Close
          </button>
        </div>
      </dialog>
    </>
  );
}
