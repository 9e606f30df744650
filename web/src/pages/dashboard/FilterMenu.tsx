import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { type Filter, useDashboard } from './context';
import { type Behaviour, deedVerb, FILTER_DIMENSIONS, isDeedDimension, OPERATOR_LABELS } from './state';

const PROPERTY = 'property';
const GROUPS = [...new Set(FILTER_DIMENSIONS.map((d) => d.group))];
const SCOPES: ('events' | Behaviour)[] = ['events', 'has_done', 'has_not_done'];

/**
 * Builds any filter the query API takes (spec.md "Filters"): a dimension (goals and custom
 * properties included), an operator (is, is not, contains, does not contain, matches a regular
 * expression, does not match) and one or more values, ORed. On an event dimension it can also
 * select whole visits that did, or never did, such an event (`has_done` / `has_not_done`). Values
 * are suggested from the site's own data for the view's range. The engine checks what is built.
 */
export function FilterMenu({ onAdd }: { onAdd(filter: Filter): void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn btn-small" onClick={() => setOpen(true)} aria-haspopup="dialog">
        + Filter
      </button>
      {open && (
        <FilterDialog
          onClose={() => setOpen(false)}
          onAdd={(filter) => {
            onAdd(filter);
            setOpen(false);
          }}
        />
      )}
    </>
  );
}

function FilterDialog({ onClose, onAdd }: { onClose(): void; onAdd(filter: Filter): void }) {
  const { site, query } = useDashboard();
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [choice, setChoice] = useState('event:page');
  const [property, setProperty] = useState(site.custom_properties[0] ?? '');
  const [operator, setOperator] = useState('is');
  // Plain filters keep the matching events; a behaviour keeps whole visits (docs/query-api.md "Filters").
  const [scope, setScope] = useState<'events' | Behaviour>('events');
  const [values, setValues] = useState(['']);
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const dimension = choice === PROPERTY ? `event:props:${property}` : choice;
  const goal = dimension === 'event:goal';
  const operators = goal ? ['is', 'is_not'] : Object.keys(OPERATOR_LABELS);
  const last = values[values.length - 1] ?? '';

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  // Suggestions: the dimension's most common values containing what is being typed.
  useEffect(() => {
    if (goal || (choice === PROPERTY && !property)) return setSuggestions([]);
    const controller = new AbortController();
    const timer = setTimeout(() => {
      query(
        {
          metrics: ['visitors'],
          dimensions: [dimension],
          filters: last.trim() ? [['contains', dimension, [last.trim()]]] : [],
          pagination: { limit: 20 },
        },
        controller.signal,
      )
        .then((result) => setSuggestions(result.results.map((row) => row.dimensions[0] ?? '').filter(Boolean)))
        .catch(() => setSuggestions([]));
    }, 200);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, dimension, goal, choice, property, last]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = values.map((value) => value.trim()).filter(Boolean);
    if (chosen.length === 0) return setError('Give at least one value.');
    if (choice === PROPERTY && !property) return setError('Choose a property.');
    if (operator.startsWith('matches')) {
      const bad = chosen.find((value) => {
        try {
          new RegExp(value);
          return false;
        } catch {
          return true;
        }
      });
      if (bad !== undefined) return setError(`“${bad}” is not a regular expression.`);
    }
    const leaf: Filter = [operator, dimension, chosen];
    onAdd(scope !== 'events' && isDeedDimension(dimension) ? [scope, leaf] : leaf);
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
        <div className="field">
          <label htmlFor={`${id}-dimension`}>Filter by</label>
          <select
            id={`${id}-dimension`}
            value={choice}
            onChange={(event) => {
              setChoice(event.target.value);
              setValues(['']);
              setError(null);
              if (event.target.value === 'event:goal' && !['is', 'is_not'].includes(operator)) setOperator('is');
            }}
          >
            {GROUPS.map((group) => (
              <optgroup key={group} label={group}>
                {FILTER_DIMENSIONS.filter((d) => d.group === group).map((d) => (
                  <option key={d.dimension} value={d.dimension}>
                    {d.label}
                  </option>
                ))}
              </optgroup>
            ))}
            {site.custom_properties.length > 0 && (
              <optgroup label="Custom properties">
                <option value={PROPERTY}>Property…</option>
              </optgroup>
            )}
          </select>
        </div>
        {choice === PROPERTY && (
          <div className="field">
            <label htmlFor={`${id}-property`}>Property</label>
            <select id={`${id}-property`} value={property} onChange={(event) => setProperty(event.target.value)}>
              {site.custom_properties.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </div>
        )}
        {isDeedDimension(dimension) && (
          <div className="field">
            <label htmlFor={`${id}-scope`}>Show</label>
            <select id={`${id}-scope`} value={scope} onChange={(event) => setScope(SCOPES.find((s) => s === event.target.value) ?? 'events')}>
              <option value="events">The matching events</option>
              <option value="has_done">Visits that {deedVerb('has_done', dimension)} …</option>
              <option value="has_not_done">Visits that {deedVerb('has_not_done', dimension)} …</option>
            </select>
          </div>
        )}
        <div className="field">
          <label htmlFor={`${id}-operator`}>Operator</label>
          <select id={`${id}-operator`} value={operator} onChange={(event) => setOperator(event.target.value)}>
            {operators.map((op) => (
              <option key={op} value={op}>
                {OPERATOR_LABELS[op]}
              </option>
            ))}
          </select>
        </div>
        {values.map((value, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the value inputs are a plain list edited in place
          <div className="field" key={i}>
            <label htmlFor={`${id}-value-${i}`}>{i === 0 ? 'Value' : 'or'}</label>
            {goal ? (
              <select id={`${id}-value-${i}`} value={value} onChange={(event) => setValues(values.map((v, j) => (j === i ? event.target.value : v)))}>
                <option value="">Choose a goal</option>
                {site.goals.map((g) => (
                  <option key={g.id} value={g.display_name}>
                    {g.display_name}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={`${id}-value-${i}`}
                list={`${id}-suggestions`}
                value={value}
                autoComplete="off"
                placeholder={operator.startsWith('matches') ? 'A regular expression' : ''}
                onChange={(event) => setValues(values.map((v, j) => (j === i ? event.target.value : v)))}
              />
            )}
          </div>
        ))}
        <datalist id={`${id}-suggestions`}>
          {suggestions.map((suggestion) => (
            <option key={suggestion} value={suggestion} />
          ))}
        </datalist>
        {error && (
          <p className="form-error small" role="alert">
            {error}
          </p>
        )}
        <div className="filter-actions">
          <button type="button" className="btn btn-small" onClick={() => setValues([...values, ''])}>
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
