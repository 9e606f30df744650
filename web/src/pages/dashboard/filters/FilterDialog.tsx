import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { type Filter, useDashboard } from '../context';
import { draftDimension, type FilterDraft, filterOfDraft, PROPERTY } from './filterDraft';
import { useValueSuggestions } from './useValueSuggestions';
import { ValueFields } from './ValueFields';
import { WhatToFilterFields } from './WhatToFilterFields';

/** The filter menu's dialog (FilterMenu.tsx): a form that builds one filter and hands it to `onAdd`. */
export function FilterDialog({ onClose, onAdd }: { onClose(): void; onAdd(filter: Filter): void }) {
  const { site } = useDashboard();
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [draft, setDraft] = useState<FilterDraft>(() => ({
    choice: 'event:page',
    property: site.custom_properties[0] ?? '',
    operator: 'is',
    scope: 'events',
    values: [''],
  }));
  const [error, setError] = useState<string | null>(null);
  const dimension = draftDimension(draft);
  const goal = dimension === 'event:goal';
  const suggestions = useValueSuggestions(dimension, draft.values[draft.values.length - 1] ?? '', !goal && !(draft.choice === PROPERTY && !draft.property));

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  const change = (parts: Partial<FilterDraft>) => {
    setDraft((current) => ({ ...current, ...parts }));
    // A new dimension starts afresh: its values and any complaint about the old ones go.
    if (parts.choice !== undefined) setError(null);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = filterOfDraft(draft);
    if ('error' in built) return setError(built.error);
    onAdd(built.filter);
  };

  return (
    <dialog ref={dialog} className="details-modal card filter-modal" aria-label="Add a filter" onClose={onClose}>
      <form onSubmit={submit} className="filter-form">
        <div className="details-head">
          <h2>Add a filter</h2>
          <button type="button" className="btn btn-small" onClick={onClose} aria-label="Close">
            ✕
          </button>
        </div>
        <WhatToFilterFields id={id} site={site} draft={draft} change={change} />
        <ValueFields
          id={id}
          site={site}
          goal={goal}
          regex={draft.operator.startsWith('matches')}
          values={draft.values}
          suggestions={suggestions}
          setValues={(values) => change({ values })}
        />
        {error && (
          <p className="form-error small" role="alert">
            {error}
          </p>
        )}
        <div className="filter-actions">
          <button type="button" className="btn btn-small" onClick={() => change({ values: [...draft.values, ''] })}>
            + Another value
          </button>
          <button type="submit" className="btn btn-primary">
            Add filter
          </button>
        </div>
      </form>
    </dialog>
  );
}
