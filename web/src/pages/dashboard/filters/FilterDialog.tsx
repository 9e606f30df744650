import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { type Filter, useDashboard } from '../context';
import { draftDimension, type FilterDraft, filterOfDraft, PROPERTY } from './filterDraft';
import { useValueSuggestions } from './useValueSuggestions';
import { ValueSearch } from './ValueSearch';
import { WhatToFilterFields } from './WhatToFilterFields';

/**
 * The filter menu's dialog (FilterMenu.tsx): a form that builds one filter and hands it to
 * `onAdd`. Values are searched for among the site's own (with names and visitors); a typed value
 * that cannot match is named under the box and nothing is added.
 */
export function FilterDialog({ onClose, onAdd }: { onClose(): void; onAdd(filter: Filter): void }) {
  const { site } = useDashboard();
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [draft, setDraft] = useState<FilterDraft>(() => ({
    choice: 'event:page',
    property: site.custom_properties[0] ?? '',
    operator: 'is',
    scope: 'events',
    values: [],
    typed: '',
  }));
  const [error, setError] = useState<string | null>(null);
  const dimension = draftDimension(draft);
  const suggestions = useValueSuggestions(dimension, draft.typed, !(draft.choice === PROPERTY && !draft.property));

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  const change = (parts: Partial<FilterDraft>) => {
    setDraft((current) => ({ ...current, ...parts }));
    // A change of what is filtered or typed takes back the complaint about the old one.
    setError(null);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = filterOfDraft(
      draft,
      site.goals.map((goal) => goal.display_name),
    );
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
        <ValueSearch
          id={id}
          dimension={dimension}
          regex={draft.operator.startsWith('matches')}
          values={draft.values}
          typed={draft.typed}
          suggestions={suggestions}
          error={error}
          change={change}
        />
        <div className="filter-actions">
          <button type="submit" className="btn btn-primary">
            Add filter
          </button>
        </div>
      </form>
    </dialog>
  );
}
