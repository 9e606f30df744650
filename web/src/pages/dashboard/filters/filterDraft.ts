import type { Filter } from '../context';
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
  values: string[];
}

/** The dimension a draft filters on: a custom property's, or the chosen one. */
export const draftDimension = (draft: Pick<FilterDraft, 'choice' | 'property'>) => (draft.choice === PROPERTY ? `event:props:${draft.property}` : draft.choice);

/**
 * The filter a draft stands for, or what is missing from it: at least one value, a property when
 * one is to be chosen, and values that are regular expressions for `matches`. The engine checks
 * the rest of what is built.
 */
export function filterOfDraft(draft: FilterDraft): { filter: Filter } | { error: string } {
  const chosen = draft.values.map((value) => value.trim()).filter(Boolean);
  if (chosen.length === 0) return { error: 'Give at least one value.' };
  if (draft.choice === PROPERTY && !draft.property) return { error: 'Choose a property.' };
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
  const dimension = draftDimension(draft);
  const leaf: Filter = [draft.operator, dimension, chosen];
  return { filter: draft.scope !== 'events' && isDeedDimension(dimension) ? [draft.scope, leaf] : leaf };
}
