import { type KeyboardEvent, useRef } from 'react';
import { formatNumber } from '../../../format';
import { Flag } from '../Flag';
import { valueLabel } from '../places';
import type { Suggestion } from './useValueSuggestions';

/**
 * The filter's values: a search box whose suggestions read as names with their visitors (a
 * country's name for its code), the chosen ones as removable chips above it, and under it why a
 * value cannot match. Arrow keys move through the suggestions, Enter or a click takes one.
 */
export function ValueSearch({
  id,
  dimension,
  regex,
  values,
  typed,
  suggestions,
  error,
  change,
}: {
  id: string;
  dimension: string;
  /** The values are regular expressions (a `matches` operator). */
  regex: boolean;
  values: string[];
  typed: string;
  suggestions: Suggestion[];
  error: string | null;
  change(parts: { values?: string[]; typed?: string }): void;
}) {
  const list = useRef<HTMLFieldSetElement>(null);
  const flagged = dimension === 'visit:country';
  const offered = suggestions.filter((s) => !values.includes(s.value));
  const input = useRef<HTMLInputElement>(null);
  const choose = (suggestion: Suggestion) => {
    change({ values: [...values, suggestion.value], typed: '' });
    input.current?.focus();
  };
  // Arrow keys walk from the box through the suggestions and back.
  const walk = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const buttons = [...(list.current?.querySelectorAll('button') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const next = at + (event.key === 'ArrowDown' ? 1 : -1);
    event.preventDefault();
    if (next < 0) input.current?.focus();
    else buttons[Math.min(next, buttons.length - 1)]?.focus();
  };
  return (
    <div className="field value-search">
      <label htmlFor={`${id}-value`}>Value</label>
      {values.length > 0 && (
        <ul className="chosen-values" aria-label="Chosen so far">
          {values.map((value) => (
            <li key={value} className="chip">
              {flagged && <Flag code={value} />}
              {valueLabel(dimension, value)}
              <button type="button" aria-label={`Remove ${valueLabel(dimension, value)}`} onClick={() => change({ values: values.filter((v) => v !== value) })}>
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        ref={input}
        id={`${id}-value`}
        type="search"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-value-error` : undefined}
        value={typed}
        autoComplete="off"
        placeholder={regex ? 'A regular expression' : values.length > 0 ? 'Search for another value' : 'Search'}
        onChange={(event) => change({ typed: event.target.value })}
        onKeyDown={walk}
      />
      {error && (
        <p id={`${id}-value-error`} className="form-error small" role="alert">
          {error}
        </p>
      )}
      {offered.length > 0 && (
        <fieldset ref={list} className="suggestions" aria-label="Suggestions" onKeyDown={walk}>
          {offered.map((suggestion) => (
            <button key={suggestion.value} type="button" data-value={suggestion.value} onClick={() => choose(suggestion)}>
              <span className="suggestion-label">
                {flagged && <Flag code={suggestion.value} />}
                {suggestion.label}
              </span>
              <span className="num muted small">{formatNumber(suggestion.visitors)}</span>
            </button>
          ))}
        </fieldset>
      )}
    </div>
  );
}
