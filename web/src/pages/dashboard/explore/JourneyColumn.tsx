import { JOURNEY_LIMITS, type JourneysResponse, type LabelledStep } from '@contracts/journeys';
import { type CSSProperties, useEffect, useId, useState } from 'react';
import { exactNumber, formatNumber } from '../../../format';
import { panelError } from '../panels/panelError';
import { sameStep, stepOf } from './journey';
import type { AskJourneys } from './useJourney';

/** How long typing may pause before a search is asked for. */
const SEARCH_PAUSE_MS = 300;

/** How many candidates a column lists, and keeps room for from the start. */
export const CANDIDATES = JOURNEY_LIMITS.defaultCandidates;

type Search = { text: string; answer: JourneysResponse | null; error: string | null };

/**
 * A column's search (the API's `search`, 3 characters at least): the candidates of the same
 * question whose label holds the text. Shorter text searches nothing and says so.
 */
function useColumnSearch(ask: AskJourneys, question: Parameters<AskJourneys>[0]) {
  const [text, setText] = useState('');
  const [search, setSearch] = useState<Search | null>(null);
  const wanted = text.trim();
  const questionKey = JSON.stringify(question);
  // biome-ignore lint/correctness/useExhaustiveDependencies: questionKey stands for the question
  useEffect(() => {
    if (wanted.length < JOURNEY_LIMITS.searchChars) {
      setSearch(null);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      ask({ ...question, search: wanted }, controller.signal)
        .then((answer) => setSearch({ text: wanted, answer, error: null }))
        .catch((failure: Error) => !controller.signal.aborted && setSearch({ text: wanted, answer: null, error: panelError(failure) }));
    }, SEARCH_PAUSE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [ask, questionKey, wanted]);
  const short = wanted.length > 0 && wanted.length < JOURNEY_LIMITS.searchChars;
  // A search of other text than the box's is on its way: the list shown is the last one, dimmed.
  const waiting = wanted.length >= JOURNEY_LIMITS.searchChars && search?.text !== wanted;
  return { text, setText, search: wanted.length >= JOURNEY_LIMITS.searchChars ? search : null, short, waiting };
}

/**
 * One step of the journey: its candidates, most visitors first, each a button with a bar sized
 * against the column's largest; the chosen one is pressed. Choosing one replaces the column's
 * step. A search box narrows the column.
 */
export function JourneyColumn({
  title,
  answer,
  chosen,
  ask,
  question,
  choose,
  nothingMore,
}: {
  title: string;
  answer: JourneysResponse;
  chosen: LabelledStep | null;
  ask: AskJourneys;
  question: Parameters<AskJourneys>[0];
  choose(step: LabelledStep): void;
  /** What an empty column says: where the visits ended (or, backward, began). */
  nothingMore: string;
}) {
  const id = useId();
  const { text, setText, search, short, waiting } = useColumnSearch(ask, question);
  const next = search?.answer?.next ?? answer.next;
  const max = Math.max(1, ...next.map((c) => c.visitors));
  const hint = short
    ? `Type at least ${JOURNEY_LIMITS.searchChars} characters to search.`
    : search?.error
      ? search.error
      : search?.answer && next.length === 0
        ? `No step here contains “${search.text}”.`
        : null;
  return (
    <li className="journey-column" aria-labelledby={`${id}-title`} data-column={question.steps.length}>
      <h3 id={`${id}-title`} className="journey-column-title">
        {title}
      </h3>
      <input
        type="search"
        className="input journey-search"
        aria-label={`Search ${title.toLowerCase()}`}
        aria-describedby={hint ? `${id}-hint` : undefined}
        placeholder="Search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          // Escape clears the search first; a second one is the page's (a dialog's close).
          if (event.key !== 'Escape' || !text) return;
          event.preventDefault();
          setText('');
        }}
      />
      <p id={`${id}-hint`} className={`journey-hint small ${search?.error ? 'form-error' : 'muted'}`} role="status">
        {hint}
      </p>
      <ul className={`journey-candidates${waiting ? ' stale' : ''}`} style={{ '--rows': CANDIDATES } as CSSProperties}>
        {next.length === 0 && !search && <li className="journey-empty muted small">{nothingMore}</li>}
        {next.map(({ step, visitors }) => {
          const pressed = chosen !== null && sameStep(stepOf(chosen), stepOf(step));
          return (
            <li key={step.label}>
              <button
                type="button"
                className="journey-candidate"
                aria-pressed={pressed}
                title={`${step.label}: ${exactNumber(visitors)} visitor${visitors === 1 ? '' : 's'}`}
                onClick={() => choose(step)}
              >
                <span className="journey-bar" style={{ width: `${(visitors / max) * 100}%` }} aria-hidden="true" />
                <span className="journey-label">{step.label}</span>
                <span className="journey-visitors">
                  {formatNumber(visitors)}
                  <span className="visually-hidden"> visitor{visitors === 1 ? '' : 's'}</span>
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </li>
  );
}

/** A column's place while its candidates are on their way: the same size as the column it becomes. */
export function ColumnPlaceholder({ title }: { title: string }) {
  return (
    <li className="journey-column" aria-busy="true" aria-label={`${title}, loading`}>
      <h3 className="journey-column-title">{title}</h3>
      <div className="journey-search panel-skeleton" aria-hidden="true" />
      <p className="journey-hint small" />
      <div className="journey-candidates panel-skeleton" style={{ '--rows': CANDIDATES } as CSSProperties} aria-hidden="true" />
    </li>
  );
}
