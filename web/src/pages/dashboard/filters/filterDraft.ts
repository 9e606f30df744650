import type { Filter } from '../context';
import { countryCodeOf, regionCodeOf } from '../places';
import { type Behaviour, isDeedDimension } from '../state';

/** The filter dialog's choice that stands for "a custom property", beside the dimensions. */
export const PROPERTY = 'property';

/** What the filter dialog holds while a filter is being built. */
export interface FilterDraft {
  /** A dimension, or PROPERTY with `property` naming it. */
  choice: string;
  property: string;
  operator: string;
  /** Plain filters keep the matching events; a behaviour keeps whole visits (docs/query-api.md "Filters"). */
  scope: 'events' | Behaviour;
  /** Values chosen from the suggestions, as the engine stores them (a country's code). */
  values: string[];
  /** What is typed in the search box, taken as one more value when the filter is added. */
  typed: string;
}

/** The dimension a draft filters on: a custom property's, or the chosen one. */
export const draftDimension = (draft: Pick<FilterDraft, 'choice' | 'property'>) => (draft.choice === PROPERTY ? `event:props:${draft.property}` : draft.choice);

/**
 * Dimensions whose values are names from a closed list: a filter on them matches exactly (is,
 * is not), and a typed value must be one of the list (a country's name or code, a goal's name).
 */
export const isClosedList = (dimension: string) => dimension === 'visit:country' || dimension === 'visit:region' || dimension === 'event:goal';

/**
 * The stored value a typed text stands for on a dimension of a closed list, or why it cannot
 * match: "Germany" is DE, "Niedersachsen" is DE-NI, "signup" the goal "Signup". Other
 * dimensions take the text as it is.
 */
export function typedValue(dimension: string, text: string, goals: readonly string[]): { value: string } | { error: string } {
  if (dimension === 'visit:country') {
    const code = countryCodeOf(text);
    return code ? { value: code } : { error: `“${text}” is not a country; type its name or choose one from the list.` };
  }
  if (dimension === 'visit:region') {
    const code = regionCodeOf(text);
    return code ? { value: code } : { error: `“${text}” is not a region; type its name or choose one from the list.` };
  }
  if (dimension === 'event:goal') {
    const goal = goals.find((name) => name.toLowerCase() === text.toLowerCase());
    return goal ? { value: goal } : { error: `This site has no goal “${text}”; choose one from the list.` };
  }
  return { value: text };
}

/**
 * The filter a draft stands for, or what is wrong with it: at least one value, a property when
 * one is to be chosen, typed names that match (closed lists) and regular expressions that compile
 * (`matches`). The engine checks the rest of what is built.
 */
export function filterOfDraft(draft: FilterDraft, goals: readonly string[] = []): { filter: Filter } | { error: string } {
  if (draft.choice === PROPERTY && !draft.property) return { error: 'Choose a property.' };
  const dimension = draftDimension(draft);
  const typed = draft.typed.trim();
  const chosen = [...draft.values];
  if (typed) {
    const exact = draft.operator === 'is' || draft.operator === 'is_not';
    const resolved = exact && isClosedList(dimension) ? typedValue(dimension, typed, goals) : { value: typed };
    if ('error' in resolved) return resolved;
    if (!chosen.includes(resolved.value)) chosen.push(resolved.value);
  }
  if (chosen.length === 0) return { error: 'Give at least one value.' };
  if (draft.operator.startsWith('matches')) {
    const bad = chosen.find((value) => {
      try {
        new RegExp(value);
        return false;
      } catch {
        return true;
      }
    });
    if (bad !== undefined) return { error: `“${bad}” is not a regular expression.` };
  }
  const leaf: Filter = [draft.operator, dimension, chosen];
  return { filter: draft.scope !== 'events' && isDeedDimension(dimension) ? [draft.scope, leaf] : leaf };
}
